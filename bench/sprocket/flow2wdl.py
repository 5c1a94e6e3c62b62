#!/usr/bin/env python3
"""Translate a generated EasyFlow benchmark flow into the equivalent WDL 1.2 workflow.

usage: flow2wdl.py FLOW > WORKFLOW.wdl

The input is the reference workload (`shared/tools/genflow.py N`, or
`cargo xtask genflow N`): the translation keeps its shape step for step, so
that Sprocket's WDL analyzer and easyflow-ls get documents of the same size and
structure to analyse.

- each `step S runs P.Q (...)` becomes `call P_Q as S { ... }`, with the
  same parameters as call inputs, in the same order and on as many lines;
- a data dependency `S12.outs["part5.dat"]` stays as it is (the task's output
  `outs` is a `Map[String, File]`); read from a step that sweeps, whose call
  is an array outside its scatter, it takes that call's first instance,
  `S12.outs[0]["part5.dat"]`;
- `after A, B` becomes WDL 1.2's `after A after B`;
- a `sweep [...]` parameter puts the call in a `scatter` over its values;
- a list that mixes numbers and lists, `[1, 2, 3, [4, 5]]`, becomes an
  array of arrays, `[[1, 2, 3], [4, 5]]`;
- `require a, b;` becomes the workflow's `File` inputs, the flow's attributes
  its `meta`, `//` comments `#` comments;
- one task per package, its inputs the parameters the flow passes to it
  (optional, typed from the values, all passed to its command), its output
  map keyed by every file name the flow reads from a step;
- the outputs of the steps no other step reads are the workflow's outputs
  (a WDL call whose outputs nobody reads is warned about; an EasyFlow step
  is not), so that the document is as free of diagnostics as the flow;
- a step's attributes (`[priority = @high]`) and post-processing code blocks
  have no WDL equivalent and are left out.

Anything else in the flow is reported as unsupported (exit status 2).
"""
import ast
import re
import sys

STEP = re.compile(r"step (\w+) runs ([\w.]+)(?: after ([\w, ]+))?$")
PARAM = re.compile(r"  (\w+) = (.*?),?$")
REFERENCE = re.compile(r'(\w+)\.(\w+)\["([^"]*)"\]$')
FLOW_ATTRIBUTE = re.compile(r'\[flow:(\w+) = (.*)\]$')
STEP_ATTRIBUTE = re.compile(r"\[\w+ = .*\]$")


class Unsupported(Exception):
    pass


def task_name(package):
    return package.replace(".", "_")


def literal(text):
    """The Python value of a number, string or list literal of the flow."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise Unsupported(f"value `{text}`")


def regular(value):
    """A list whose items are all scalars or all lists: WDL arrays are uniform."""
    if not isinstance(value, list) or all(not isinstance(v, list) for v in value):
        return value
    groups, scalars = [], []
    for item in value:
        if isinstance(item, list):
            if scalars:
                groups.append(scalars)
                scalars = []
            groups.append(regular(item))
        else:
            scalars.append(item)
    if scalars:
        groups.append(scalars)
    return groups


def wdl_type(value):
    if isinstance(value, bool):
        return "Boolean"
    if isinstance(value, int):
        return "Int"
    if isinstance(value, float):
        return "Float"
    if isinstance(value, str):
        return "String"
    if isinstance(value, list):
        if not value:
            raise Unsupported("an empty list")
        return "Array[%s]" % unify([wdl_type(v) for v in value])
    raise Unsupported(f"value {value!r}")


def unify(types):
    kinds = set(types)
    if kinds <= {"Int", "Float"} and "Float" in kinds:
        return "Float"
    if len(kinds) != 1:
        raise Unsupported("values of types " + ", ".join(sorted(kinds)))
    return kinds.pop()


def wdl_literal(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        if any(c in value for c in '"\\~$'):
            raise Unsupported(f"string {value!r}")
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(wdl_literal(v) for v in value) + "]"
    return repr(value)


def parse(lines):
    """The flow's attributes, required files and items (steps and comments)."""
    attributes, required, items = [], [], []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        if not line:
            items.append(("blank",))
        elif line.startswith("//"):
            items.append(("comment", line[2:].strip()))
        elif m := FLOW_ATTRIBUTE.match(line):
            attributes.append((m[1], m[2]))
        elif line.startswith("require ") and line.endswith(";"):
            required += [n.strip() for n in line[len("require "):-1].split(",")]
        elif STEP_ATTRIBUTE.match(line):
            pass
        elif m := STEP.match(line):
            if lines[i].rstrip() != "(":
                raise Unsupported(f"line {i + 1}: expected `(`")
            i += 1
            params = []
            while True:
                if i >= len(lines):
                    raise Unsupported(f"step {m[1]}: unterminated parameters")
                body = lines[i].rstrip()
                i += 1
                if body in (");", ")"):
                    break
                p = PARAM.match(body)
                if not p:
                    raise Unsupported(f"line {i}: `{body}`")
                params.append((p[1], p[2]))
            if body == ")":
                if not lines[i].startswith("post code"):
                    raise Unsupported(f"line {i + 1}: expected a post code block")
                while lines[i].rstrip() != "code end":
                    i += 1
                i += 1
            after = [a.strip() for a in m[3].split(",")] if m[3] else []
            items.append(("step", m[1], m[2], after, params))
        else:
            raise Unsupported(f"line {i}: `{line}`")
    return attributes, required, items


def translate(text):
    attributes, required, items = parse(text.split("\n"))
    files = set(required)
    steps = {item[1]: item for item in items if item[0] == "step"}
    swept = {name for name, s in steps.items() if any(v.startswith("sweep ") for _, v in s[4])}
    # Per task, its inputs' types in order of first use; every output member
    # and file name read from a step.
    inputs = {}
    outputs = {}
    read = set()

    def value_of(step, name, text):
        """The WDL expression and type of a parameter's value."""
        if text in files:
            return text, "File"
        if m := REFERENCE.match(text):
            source, member, key = m[1], m[2], m[3]
            if source not in steps:
                raise Unsupported(f"step {step}: reads the unknown step {source}")
            outputs.setdefault(member, set()).add(key)
            read.add(source)
            first = "[0]" if source in swept else ""
            return f'{source}.{member}{first}["{key}"]', "File"
        value = regular(literal(text))
        return wdl_literal(value), wdl_type(value)

    body = []
    for item in items:
        if item[0] == "blank":
            body.append("")
            continue
        if item[0] == "comment":
            body.append(f"  # {item[1]}")
            continue
        _, name, package, after, params = item
        task = inputs.setdefault(task_name(package), {})
        scatters, call_inputs = [], []
        for param, text in params:
            if text.startswith("sweep "):
                values = regular(literal(text[len("sweep "):]))
                variable = f"{name}_{param}"
                scatters.append(f"scatter ({variable} in {wdl_literal(values)}) {{")
                expression, kind = variable, wdl_type(values)[len("Array["):-1]
            else:
                expression, kind = value_of(name, param, text)
            task.setdefault(param, []).append(kind)
            call_inputs.append(f"{param} = {expression}")
        indent = "  " * (len(scatters) + 1)
        for depth, scatter in enumerate(scatters):
            body.append("  " * (depth + 1) + scatter)
        head = f"call {task_name(package)} as {name}" + "".join(f" after {a}" for a in after)
        body.append(f"{indent}{head} {{")
        body.append(",\n".join(f"{indent}  {c}" for c in call_inputs))
        body.append(f"{indent}}}")
        for depth in reversed(range(len(scatters))):
            body.append("  " * (depth + 1) + "}")

    out = ["version 1.2", ""]
    output_lines = [
        f"    Map[String, File] {member} = {{"
        + ", ".join(f'"{k}": "{k}"' for k in sorted(keys))
        + "}"
        for member, keys in sorted(outputs.items())
    ]
    for task, params in inputs.items():
        out.append(f"task {task} {{")
        out.append("  input {")
        out += [f"    {unify(kinds)}? {param}" for param, kinds in params.items()]
        out.append("  }")
        out.append("  command <<<")
        arguments = [
            f"~{{write_json({param})}}" if unify(kinds).startswith("Array[") else f"~{{{param}}}"
            for param, kinds in params.items()
        ]
        out.append(f"    run-package {task} " + " ".join(arguments))
        out.append("  >>>")
        out.append("  output {")
        out += output_lines
        out.append("  }")
        out.append("}")
        out.append("")
    out.append("workflow generated {")
    if attributes:
        out.append("  meta {")
        for key, value in attributes:
            value = value if value.startswith('"') else f'"{value}"'
            out.append(f"    {key}: {value}")
        out.append("  }")
    out.append("  input {")
    out += [f"    File {f}" for f in required]
    out.append("  }")
    out += body
    while out[-1] == "":
        out.pop()
    out.append("")
    out.append("  output {")
    for name in steps:
        if name not in read:
            for member in sorted(outputs):
                kind = "Map[String, File]"
                kind = f"Array[{kind}]" if name in swept else kind
                out.append(f"    {kind} {name}_{member} = {name}.{member}")
    out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            text = f.read()
        sys.stdout.write(translate(text))
    except Unsupported as e:
        print(f"flow2wdl: unsupported in {sys.argv[1]}: {e}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        print(f"flow2wdl: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
