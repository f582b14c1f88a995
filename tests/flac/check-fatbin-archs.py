#!/usr/bin/env python3
"""Lists what a CUDA fatbin holds, as `cuobjdump --list-elf --list-ptx` would,
and checks it against the architectures the build asked for:

  check-fatbin-archs.py FATBIN "75;80;86;89;90" PTX_ARCH

Real code (ELF/SASS) must be there for each architecture and PTX for
PTX_ARCH. The container: a 16-byte header (magic 0xBA55ED50, version,
header size, payload size), then entries, each a header (kind 1 PTX or 2
ELF at byte 0, its own size at byte 4, payload size at byte 8, the
architecture at byte 28) followed by its payload.
"""
import struct
import sys


def entries(data):
    magic, _version, header_size, size = struct.unpack_from("<IHHQ", data, 0)
    if magic != 0xBA55ED50:
        raise ValueError("not a fatbin (magic %#x)" % magic)
    off, end = header_size, header_size + size
    while off < end:
        kind, _ver, entry_header, payload = struct.unpack_from("<HHIQ", data, off)
        (arch,) = struct.unpack_from("<I", data, off + 28)
        yield {1: "ptx", 2: "elf"}.get(kind, "kind%d" % kind), arch
        off += entry_header + payload


def main():
    path, archs, ptx = sys.argv[1], sys.argv[2], int(sys.argv[3])
    want_elf = sorted(int(a) for a in archs.split(";") if a.strip())
    data = open(path, "rb").read()
    found = list(entries(data))
    for kind, arch in found:
        print("%s: %s_%d" % (kind.upper(), "sm" if kind == "elf" else "compute", arch))
    elf = sorted(a for k, a in found if k == "elf")
    ptxs = [a for k, a in found if k == "ptx"]
    ok = elf == want_elf and ptxs == [ptx]
    print("expected ELF %s and PTX compute_%d: %s" % (" ".join("sm_%d" % a for a in want_elf), ptx,
                                                       "yes" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
