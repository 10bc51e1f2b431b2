// What `khaelor --demo` needs: the script, and the project it works on.
export { demoScenario } from "./scenario.ts";
export { writeSampleProject, SAMPLE_PROJECT_FILES } from "./sample-project.ts";
