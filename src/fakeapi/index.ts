// The fake Messages API as a library: `khaelor --demo` and the tests start it in-process.
export { startFakeApi, type FakeApi, type FakeApiOptions, type RecordedRequest } from "./server.ts";
export { parseScenario, type Scenario, type ScenarioInput, type ScenarioBlock, type Fault, type Check, type Turn, type TurnInput } from "./scenario.ts";
export { validateMessagesRequest } from "./validate-request.ts";
