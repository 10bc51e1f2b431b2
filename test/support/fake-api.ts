// Tests start the same fake Messages API that ships inside `khaelor --demo`.
export * from "../../src/fakeapi/index.ts";
