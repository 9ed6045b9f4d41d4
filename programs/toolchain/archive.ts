// Reading `ar` archives, the container rustc writes a staticlib in.

import { ascii } from "./elf";

export interface ArchiveMember {
  name: string;
  data: Uint8Array;
}

/** Members of a GNU/BSD `ar` archive, in archive order, without the symbol index and long-name table. */
export function readArchive(bytes: Uint8Array): ArchiveMember[] {
  if (ascii(bytes, 0, 8) !== "!<arch>\n") throw new Error("not an ar archive (bad magic)");
  const members: ArchiveMember[] = [];
  let longNames = "";
  let pos = 8;
  while (pos < bytes.length) {
    if (pos + 60 > bytes.length) throw new Error(`ar archive truncated in a member header at ${pos}`);
    const rawName = ascii(bytes, pos, 16).trimEnd();
    const size = Number.parseInt(ascii(bytes, pos + 48, 10).trim(), 10);
    if (ascii(bytes, pos + 58, 2) !== "`\n" || !Number.isSafeInteger(size) || size < 0) {
      throw new Error(`ar archive has a malformed member header at ${pos}`);
    }
    let data = bytes.subarray(pos + 60, pos + 60 + size);
    if (data.length !== size) throw new Error(`ar member "${rawName}" is truncated`);
    pos += 60 + size + (size % 2);

    let name: string;
    if (rawName === "/" || rawName === "/SYM64/" || rawName.startsWith("__.SYMDEF")) continue;
    if (rawName === "//") {
      longNames = ascii(data, 0, data.length);
      continue;
    }
    if (/^\/\d+$/.test(rawName)) {
      const start = Number(rawName.slice(1));
      const end = longNames.indexOf("\n", start);
      name = longNames.slice(start, end < 0 ? undefined : end).replace(/\/$/, "");
    } else if (rawName.startsWith("#1/")) {
      const length = Number(rawName.slice(3));
      name = ascii(data, 0, length).replace(/\0+$/, "");
      data = data.subarray(length);
    } else {
      name = rawName.replace(/\/$/, "");
    }
    if (name === "__.SYMDEF" || name === "__.SYMDEF SORTED") continue;
    members.push({ name, data });
  }
  return members;
}
