#!/usr/bin/env python3
# gst-gpucodecs: packs Debian's ffmpeg for the GPU machine, which has no
# FFmpeg, as the software baseline of pipeline-bench.sh
# (SPDX-License-Identifier: LGPL-2.1-or-later).
#
# Usage: pack-ffmpeg.py OUT.tar.xz [FFMPEG]
#
# ffmpeg links about 200 libraries (codecs, devices, filters: over 200 MB),
# too many to carry. The archive holds ffmpeg, its own libav*/libsw*
# libraries and, for every other library they link, a stub of the same
# soname that defines the same symbols (with their versions); its functions
# return 0. Decoding ProRes from a .mov to the null muxer calls none of
# those libraries but for start-up calls such as the TLS library's global
# initialisation (0: success); anything else that calls one (another codec,
# a device, a filter) would misbehave, which is why this is for the
# benchmark only. Unpack with `tar -xJf OUT.tar.xz -C DIR` and run
# DIR/ffmpeg/ffmpeg (a wrapper that sets the library path).
import os, re, subprocess, sys, tarfile, tempfile

out = sys.argv[1]
ffmpeg = sys.argv[2] if len(sys.argv) > 2 else '/usr/bin/ffmpeg'
# Libraries carried as they are: FFmpeg's own, and the system's base that
# every Linux has (the GPU machine's own copies are used for those).
own = re.compile(r'^lib(avcodec|avformat|avutil|avfilter|avdevice|swresample|swscale|postproc)\.so')
base = re.compile(r'^(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libgcc_s|libstdc\+\+|libz|liblzma|libbz2)\.so')

def ldd(path):
    libs = {}
    for line in subprocess.run(['ldd', path], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r'\s*(\S+) => (\S+)', line)
        if m:
            libs[m.group(1)] = m.group(2)
    return libs

def needed(path):
    dyn = subprocess.run(['readelf', '-d', path], capture_output=True, text=True).stdout
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', dyn)

every = ldd(ffmpeg)
carried = [n for n in every if own.match(n)]
stubbed = set()
for obj in [ffmpeg] + [every[n] for n in carried]:
    for n in needed(obj):
        if not own.match(n) and not base.match(n):
            stubbed.add(n)

def stub(soname, real, workdir):
    """A library named soname that defines real's dynamic symbols."""
    nodes, funcs, objs, seen = {}, [], [], set()
    for line in subprocess.run(['objdump', '-T', real], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r'^[0-9a-f]+ (.{7}) (\S+)\s+([0-9a-f]+)(?:\s+(?:\((\S+)\)|(\S+)))?(?:\s+\.\w+)?\s+(\S+)$', line)
        if not m or m.group(2) in ('*UND*', '*ABS*'):
            continue
        flags, size, name = m.group(1), int(m.group(3), 16), m.group(6)
        # A hidden version (in brackets) is an old symbol kept for old
        # binaries; the libraries here link the default one.
        if (m.group(4) or not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', name) or name in seen
                or name in ('_init', '_fini')):
            continue
        seen.add(name)
        ver = m.group(5) or ''
        if ver == 'Base':
            ver = ''
        (funcs if 'F' in flags else objs).append((name, max(size, 8)))
        nodes.setdefault(ver, set()).add(name)
    c = os.path.join(workdir, soname + '.c')
    with open(c, 'w') as f:
        for name, _ in sorted(set(funcs)):
            f.write(f'long {name} (void) {{ return 0; }}\n')
        for name, size in sorted(set(objs)):
            f.write(f'char {name}[{size}];\n')
    vs = os.path.join(workdir, soname + '.map')
    with open(vs, 'w') as f:
        named = [v for v in nodes if v]
        for v in named:
            f.write(f'{v} {{ global: ' + ' '.join(f'{s};' for s in sorted(nodes[v])) + ' };\n')
        if '' in nodes or not named:
            f.write('{ global: *; };\n' if not named else '')
    so = os.path.join(workdir, soname)
    cmd = ['cc', '-shared', '-fPIC', '-O0', '-w', '-fno-builtin', '-o', so, c, '-Wl,-soname,' + soname]
    if any(nodes):
        cmd.append('-Wl,--version-script=' + vs)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f'pack-ffmpeg: stub of {soname}: {r.stderr[-2000:]}')
    subprocess.run(['strip', '--strip-unneeded', so], check=True)
    return so

with tempfile.TemporaryDirectory() as tmp:
    with tarfile.open(out, 'w:xz') as tar:
        tar.add(ffmpeg, 'ffmpeg/bin/ffmpeg')
        for n in carried:
            s = os.path.join(tmp, n)
            subprocess.run(['strip', '--strip-unneeded', '-o', s, every[n]], check=True)
            tar.add(s, 'ffmpeg/lib/' + n)
        for n in sorted(stubbed):
            tar.add(stub(n, every[n], tmp), 'ffmpeg/lib/' + n)
        w = os.path.join(tmp, 'ffmpeg.sh')
        with open(w, 'w') as f:
            f.write('#!/bin/sh\nd=$(cd "$(dirname "$0")" && pwd)\n'
                    'LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$d/bin/ffmpeg" "$@"\n')
        os.chmod(w, 0o755)
        tar.add(w, 'ffmpeg/ffmpeg')
print(f'{out}: ffmpeg, {len(carried)} FFmpeg libraries, {len(stubbed)} stubs')
