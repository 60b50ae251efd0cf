#!/usr/bin/env python3
"""Carries out deploy/Dockerfile without Docker, as far as a machine without a Docker engine can.

  emulate_image.py DOCKERFILE CONTEXT ROOT

The build stage runs here: its COPY lines copy from CONTEXT into ROOT/src, its RUN lines run with bash in ROOT/src
(the local Swift toolchain stands in for the swift image), and every absolute /app path becomes ROOT/app. The
runtime stage's COPY --from=build of /app is then already in place; its RUN lines (useradd) are skipped. Prints a
JSON object with what the runtime stage declares: user, exposed ports, healthcheck and entrypoint (paths under
ROOT), the base images, and the skipped lines. Exit status 1 when a step fails or the file has an instruction
this emulation does not know.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys


def instructions(path):
    """(keyword, argument text) per instruction: continuation lines joined, comments dropped."""
    result, pending = [], ""
    for raw in open(path):
        line = raw.rstrip("\n")
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line = pending + line
        pending = ""
        keyword, _, rest = line.strip().partition(" ")
        result.append((keyword.upper(), rest.strip()))
    return result


def main():
    dockerfile, context, root = sys.argv[1:4]
    src, app = os.path.join(root, "src"), os.path.join(root, "app")
    os.makedirs(src, exist_ok=True)
    args, stages, report = {}, [], {"skipped": []}

    def local(text):
        return re.sub(r"(?<![\w/.-])/app(?=/|\b)", app, text)

    def substitute(text):
        return re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), text)

    for keyword, rest in instructions(dockerfile):
        stage = stages[-1] if stages else None
        if keyword == "ARG":
            name, _, default = rest.partition("=")
            args[name] = default
        elif keyword == "FROM":
            words = substitute(rest).split()
            stages.append(words[2] if len(words) == 3 and words[1].upper() == "AS" else f"stage{len(stages)}")
            report.setdefault("images", []).append(words[0])
        elif keyword == "WORKDIR":
            if stage != "build" or rest != "/src":
                sys.exit(f"unexpected WORKDIR {rest} in stage {stage}")
        elif keyword == "COPY":
            words = rest.split()
            if words[0].startswith("--from="):
                if words[1:] != ["/app", "/app"]:
                    sys.exit(f"unexpected COPY {rest}")
                continue  # the build stage already put /app in place
            *sources, target = words
            for source in sources:
                into = local(target) if target.startswith("/") else os.path.join(src, target)
                origin = os.path.join(context, source)
                if os.path.isdir(origin):
                    shutil.copytree(origin, into, dirs_exist_ok=True, symlinks=True)
                else:
                    os.makedirs(into if target.endswith("/") else os.path.dirname(into), exist_ok=True)
                    shutil.copy2(origin, into)
        elif keyword == "RUN":
            if stage == "build":
                print(f"[emulate] RUN {rest[:100]}...", file=sys.stderr, flush=True)
                subprocess.run(["bash", "-euo", "pipefail", "-c", local(rest)], cwd=src, check=True,
                               stdout=sys.stderr)
            else:
                report["skipped"].append(f"RUN {rest}")
        elif keyword == "USER":
            report["user"] = rest
        elif keyword == "EXPOSE":
            report["expose"] = rest.split()
        elif keyword == "STOPSIGNAL":
            report["stopsignal"] = rest
        elif keyword == "HEALTHCHECK":
            options, _, command = rest.partition("CMD ")
            report["healthcheck_options"] = shlex.split(options)
            report["healthcheck"] = json.loads(command)
        elif keyword == "ENTRYPOINT":
            report["entrypoint"] = [local(word) for word in json.loads(rest)]
        else:
            sys.exit(f"emulate_image.py does not know {keyword}")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
