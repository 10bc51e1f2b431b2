// Tests start the same fake Messages API that ships inside `khaelor --demo`.
export * from "../../src/fakeapi/index.ts";

import { afterEach } from "bun:test";
import { startFakeApi, type FakeApi, type ScenarioInput } from "../../src/fakeapi/index.ts";

/** `serve(scenario)` for a test file: every fake API it starts is closed after each test. */
export function fakeApiFixture(): (scenario: ScenarioInput) => Promise<FakeApi> {
  let apis: FakeApi[] = [];
  afterEach(async () => {
    await Promise.all(apis.map((a) => a.close()));
    apis = [];
  });
  return async (scenario) => {
    const api = await startFakeApi({ scenario });
    apis.push(api);
    return api;
  };
}
