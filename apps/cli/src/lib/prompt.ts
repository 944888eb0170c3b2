import { createInterface } from "node:readline";

/** Asks a question on the terminal; `hidden` masks what is typed (passwords). */
export function prompt(question: string, { hidden = false } = {}): Promise<string> {
  if (!process.stdin.isTTY) {
    return Promise.reject(new Error(`Cannot ask for ${question.replace(/:\s*$/, "")} without a terminal; pass it as a flag.`));
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  if (hidden) {
    // Replace echoed characters; readline writes the prompt through _writeToOutput.
    const internal = rl as unknown as { _writeToOutput: (text: string) => void; output: NodeJS.WriteStream };
    internal._writeToOutput = (text: string) => {
      internal.output.write(text.startsWith(question) ? question : text.includes("\n") ? "\n" : "*");
    };
  }
  return new Promise((resolve) =>
    rl.question(question, (answer) => {
      rl.close();
      resolve(answer);
    }),
  );
}
