// Which command a name runs when the project or the user has a command file of a built-in's name:
// the built-in wins, except over /init and /review, which are only a prompt of ours.
import { expect, test } from "bun:test";
import { builtinWins, completeSlash } from "../../../src/tui/app/slash-commands.ts";

const custom = [
  { name: "review", help: "Review one file carefully (project)" },
  { name: "help", help: "my help (project)" },
  { name: "deploy", help: "ship it (user)" },
];

test("a command file named review replaces the built-in /review; one named help does not replace /help", () => {
  expect(builtinWins("review", custom)).toBe(false);
  expect(builtinWins("help", custom)).toBe(true);
  expect(builtinWins("review", [])).toBe(true);
  expect(builtinWins("deploy", custom)).toBe(false);
});

test("completion offers the replacing file once, with its own description, and never the shadowed /help file", () => {
  expect(completeSlash("/rev", custom)).toEqual([{ name: "review", help: "Review one file carefully (project)" }]);
  const help = completeSlash("/help", custom);
  expect(help.length).toBe(1);
  expect(help[0]!.help).toBe("keys and commands");
  expect(completeSlash("/dep", custom)).toEqual([{ name: "deploy", help: "ship it (user)" }]);
});
