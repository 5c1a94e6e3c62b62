"""Validates CWL documents with cwltool, all in one process; fails on any
document cwltool rejects and on any warning it logs.

usage: validate.py DOCUMENT...
Run with the engines' virtualenv's python (tests/run/install-engines.sh)."""
import io
import logging
import sys

import cwltool.main


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def main(documents):
    failed = 0
    for document in documents:
        warnings = Warnings()
        logging.getLogger().addHandler(warnings)
        logging.getLogger("cwltool").addHandler(warnings)
        out, err = io.StringIO(), io.StringIO()
        try:
            status = cwltool.main.main(["--validate", "--quiet", document], stdout=out, stderr=err)
        finally:
            logging.getLogger().removeHandler(warnings)
            logging.getLogger("cwltool").removeHandler(warnings)
        problems = [r.getMessage() for r in warnings.records]
        if status != 0 or problems or "is valid CWL" not in out.getvalue():
            failed += 1
            print(f"{document}: not valid (status {status})", file=sys.stderr)
            for problem in problems:
                print(f"  warning: {problem}", file=sys.stderr)
            print(err.getvalue() + out.getvalue(), file=sys.stderr)
    print(f"validate.py: {len(documents) - failed} of {len(documents)} documents valid without warnings")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
