"""The generated parts of the docs and schemas, from the catalogue and the check units.

``python -m mjlog.families.docgen`` rewrites them in place:

* ``docs/rule-checks.md``: each family's table of checks, between
  ``<!-- checks:FAMILY -->`` and ``<!-- /checks -->`` (a section with the markers is
  added at the end for a family registered since);
* ``docs/findings.md``: every code mjlog reports, by kind;
* ``docs/rules.md``: the rulebook's entry of every check, between
  ``<!-- rulebook -->`` and ``<!-- /rulebook -->`` (:func:`rule_entry`, which
  ``mjlog rules CHECK`` prints too);
* ``schemas/audit-report.schema.json``: the enums of codes of each kind.

A test fails when a committed file differs from what this module makes, so
the docs cannot drift from the code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from mjlog.core.catalogue import CODES, Code
from mjlog.families.base import RuleFamily
from mjlog.families.check import Rule, examples
from mjlog.families.registry import FAMILIES, violation_codes

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("diagnostic", "finding", "mismatch", "violation")
_TITLES = {
    "diagnostic": "Diagnostics: the input could not be read (or only in part)",
    "finding": "Findings: the record is inconsistent (replay, wall check), or a note",
    "mismatch": "Score mismatches: a declared value differs from mjlog's (all errors)",
    "violation": "Rule violations: a rule of the ruleset was broken (all errors)",
}


def catalogue() -> list[Code]:
    """Every code mjlog reports: the catalogue's and the checks' violations."""
    return [*CODES, *violation_codes()]


def findings_md() -> str:
    """``docs/findings.md``: every code by kind, with what reports it and what it means."""
    out = ["# Codes\n",
           "Every code mjlog reports, generated from `mjlog/core/catalogue.py` and the rule",
           "checks (`python -m mjlog.families.docgen`). Only severity `error` makes `mjlog audit`",
           "exit 1; notes (severity `info`) are counted in the summary.\n"]
    codes = catalogue()
    for kind in KINDS:
        out.append(f"## {_TITLES[kind]}\n")
        out.append("| code | reported by | severity | meaning |")
        out.append("|---|---|---|---|")
        out.extend(f"| `{c.code}` | {c.source} | {c.severity.value} | {c.meaning} |"
                   for c in codes if c.kind == kind)
        out.append("")
    return "\n".join(out)


def checks_table(family: RuleFamily) -> str:
    """A family's checks as a Markdown table: each code with its section, rule, the option
    that shapes it and whether breaking it is chombo."""
    lines = ["| code | rules.md | rule | option | chombo |", "|---|---|---|---|---|"]
    for check in family.checks():
        option = f"`{check.OPTION}`" if check.OPTION else ""
        for r in check.RULES:
            lines.append(f"| `{r.code}` | {r.section} | {r.citation} | {option} | "
                         f"{'yes' if r.chombo else 'no'} |")
    return "\n".join(lines) + "\n"


def rule_checks_md(text: str) -> str:
    """``text`` (``docs/rule-checks.md``) with each family's table of checks renewed; a
    family without its markers yet gets a section at the end, headed by its
    :attr:`~mjlog.families.base.RuleFamily.title`, for its prose to be written around."""
    for name, family in FAMILIES.items():
        begin = f"<!-- checks:{name} -->\n"
        if begin not in text:
            text = (f"{text.rstrip()}\n\n## {family.title or f'The `{name}` family'}\n\n"
                    f"{begin}<!-- /checks -->\n")
        start = text.index(begin) + len(begin)
        stop = text.index("<!-- /checks -->", start)
        text = text[:start] + checks_table(family) + text[stop:]
    return text


def penalty_text(rule: Rule) -> str:
    """What breaking ``rule`` costs, in one sentence: chombo, the rule's own
    :attr:`~mjlog.families.check.Rule.penalty`, or none (the record is wrong)."""
    if rule.chombo:
        return "Chombo when broken."
    if rule.penalty:
        return rule.penalty
    return "No penalty when broken: the record is wrong (a platform or scribe error)."


def rule_entry(code: str) -> str:
    """The rulebook's entry of one check code: its section, the rule, whether it is
    chombo, the option that shapes it and its violating and legal examples in notation,
    for each family that has it. Empty for a code no check reports."""
    out: list[str] = []
    for name, family in FAMILIES.items():
        for unit in family.checks():
            rule = next((r for r in unit.RULES if r.code == code), None)
            if rule is None:
                continue
            out.append(f"### `{code}`: §{rule.section} ({name})\n")
            option = f" Shaped by the option `{unit.OPTION}`." if unit.OPTION else ""
            out.append(f"{rule.citation} {penalty_text(rule)}{option}\n")
            for ex in examples(unit):
                if ex.code in ("", code) or ex.kind == "Legal":
                    under = f" (under {ex.under})" if ex.under else ""
                    out.append(f"{ex.kind}{under}:\n")
                    out.append("\n".join(f"    {line}" if line else ""
                                         for line in ex.text.splitlines()) + "\n")
    return "\n".join(out)


def rulebook_md(text: str) -> str:
    """``text`` (``docs/rules.md``) with the entry of every check renewed."""
    codes = list(dict.fromkeys(r.code for f in FAMILIES.values() for u in f.checks()
                               for r in u.RULES))
    begin = "<!-- rulebook -->\n"
    start = text.index(begin) + len(begin)
    stop = text.index("<!-- /rulebook -->", start)
    return text[:start] + "\n" + "\n".join(rule_entry(c) for c in codes) + "\n" + text[stop:]


def report_schema(text: str) -> str:
    """``text`` (the audit report's schema) with the enums of codes renewed."""
    codes = catalogue()
    for kind in KINDS:
        names = sorted({c.code for c in codes if c.kind == kind})
        line = f'    "{kind}-code": {{"enum": {json.dumps(names)}}},'
        text = re.sub(rf'^    "{kind}-code": .*$', line, text, count=1, flags=re.MULTILINE)
    return text


GENERATED = {
    "docs/findings.md": lambda _: findings_md(),
    "docs/rule-checks.md": rule_checks_md,
    "docs/rules.md": rulebook_md,
    "schemas/audit-report.schema.json": report_schema,
}
"""Each generated file and how to make it from its current text."""


def stale(root: Path = ROOT) -> list[str]:
    """The generated files that differ from what this module makes."""
    out = []
    for name, make in GENERATED.items():
        path = root / name
        old = path.read_text("utf-8") if path.exists() else ""
        if make(old) != old:
            out.append(name)
    return out


def main() -> None:
    """Rewrite every generated file that is out of date."""
    for name in stale():
        path = ROOT / name
        path.write_text(GENERATED[name](path.read_text("utf-8") if path.exists() else ""),
                        "utf-8")
        print(f"updated {name}")

if __name__ == "__main__":
    main()
