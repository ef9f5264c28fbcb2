/**
 * Comments for generated source: prose from db/tables.ts (its line breaks and indentation are
 * the declaration's layout, not the text's; a blank line starts a paragraph) laid out again at
 * a fixed width, so the generated files read as if written by hand and come out the same each time.
 */

/** The width generated comments are wrapped to, indentation included. */
const WIDTH = 100;

function paragraphs(text: string): string[] {
  if (text.includes("*/")) throw new Error(`a comment cannot hold "*/": ${text}`);
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim().replace(/\s+/g, " "))
    .filter((p) => p !== "");
}

/** Words joined into lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** A JSDoc comment: one line when it fits, else a block. */
export function docComment(text: string, indent: string): string[] {
  const [first, ...more] = paragraphs(text);
  const oneLine = `${indent}/** ${first} */`;
  if (more.length === 0 && oneLine.length <= WIDTH) return [oneLine];
  const body = [first ?? "", ...more].flatMap((p, i) => [
    ...(i > 0 ? [`${indent} *`] : []),
    ...wrap(p, WIDTH - indent.length - 3).map((l) => `${indent} * ${l}`),
  ]);
  return [`${indent}/**`, ...body, `${indent} */`];
}

/** `//` lines. */
export function lineComment(text: string, indent: string): string[] {
  return paragraphs(text).flatMap((p) => wrap(p, WIDTH - indent.length - 3).map((l) => `${indent}// ${l}`));
}
