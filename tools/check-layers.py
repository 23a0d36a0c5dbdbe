#!/usr/bin/env python3
"""check-layers.py — every #include in engine/ and kernel/ follows the layers' arrows.

The layers, lowest first, and what each may include besides itself:

    engine     (engine/)          nothing of the kernel
    render     (kernel/render/)   engine
    language   (kernel/lang/)     render, engine
    library    (kernel/lib/)      language, render, engine
    protocol   (kernel/jupyter/)  the language's API (lang/dsl.h), engine
    main       (kernel/main/)     protocol, the language's API (lang/dsl.h), engine

The language reaches its library only through lang/library.h, which the library implements.
The build enforces the same arrows with an include root per layer (CMakeLists.txt, "layers");
this check also catches what a root cannot see (a relative "../" path) and names the arrow:

    kernel/lang/eval.c:13 includes jupyter/jupyter.h: language -> protocol is not allowed

Run from anywhere: `tools/check-layers.py [REPO]`. Exit status 1 when an arrow is broken.
"""

import os
import re
import sys

ALLOWED = {
    "engine": set(),
    "render": {"engine"},
    "language": {"render", "engine"},
    "library": {"language", "render", "engine"},
    "protocol": {"language API", "engine"},
    "main": {"protocol", "language API", "engine"},
}
# Folders (relative to the repository) and the layer each holds; the first match wins.
FOLDERS = [
    ("engine/", "engine"),
    ("kernel/render/", "render"),
    ("kernel/lang/dsl.h", "language API"),
    ("kernel/lang/", "language"),
    ("kernel/lib/", "library"),
    ("kernel/jupyter/", "protocol"),
    ("kernel/main/", "main"),
]
# Where an include "x/y.h" (or <x/y.h>) is looked for after the including file's own folder.
ROOTS = ["kernel", "engine/include"]
SOURCE = re.compile(r"\.(c|h|cu|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def layer_of(rel):
    for prefix, layer in FOLDERS:
        if rel == prefix or rel.startswith(prefix):
            return layer
    return None


def resolve(repo, src_dir, name, quoted):
    """The repository-relative path an include names, or None (a system header)."""
    candidates = [os.path.join(src_dir, name)] if quoted else []
    candidates += [os.path.join(repo, root, name) for root in ROOTS]
    for path in candidates:
        if os.path.isfile(path):
            return os.path.relpath(os.path.realpath(path), os.path.realpath(repo))
    return None


def check(repo):
    broken, includes, files = [], 0, 0
    for top in ("engine", "kernel"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(repo, top)):
            dirnames.sort()
            for fname in sorted(filenames):
                if not SOURCE.search(fname):
                    continue
                path = os.path.join(dirpath, fname)
                rel = os.path.relpath(path, repo)
                src_layer = layer_of(rel)
                if src_layer is None:
                    broken.append(f"{rel}: in no layer (add its folder to tools/check-layers.py)")
                    continue
                if src_layer == "language API":
                    src_layer = "language"
                files += 1
                with open(path, encoding="utf-8") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = resolve(repo, dirpath, m.group(2), m.group(1) == '"')
                        if target is None:
                            continue
                        includes += 1
                        dst_layer = layer_of(target)
                        if dst_layer is None or dst_layer == src_layer:
                            continue
                        if src_layer in ("language", "library") and dst_layer == "language API":
                            continue
                        if dst_layer in ALLOWED[src_layer]:
                            continue
                        if dst_layer == "language" and "language API" in ALLOWED[src_layer]:
                            why = f"{src_layer} -> language is allowed through lang/dsl.h only"
                        else:
                            shown = "language" if dst_layer == "language API" else dst_layer
                            why = f"{src_layer} -> {shown} is not allowed"
                        broken.append(f"{rel}:{lineno} includes {m.group(2)}: {why}")
    return broken, includes, files


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    broken, includes, files = check(os.path.abspath(repo))
    for b in broken:
        print(b)
    if broken:
        print(f"layers: {len(broken)} broken arrow(s); the allowed ones are listed at the top of"
              " tools/check-layers.py")
        return 1
    print(f"layers: {includes} includes of the project's own headers in {files} files, every arrow"
          " allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
