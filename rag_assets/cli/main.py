"""The rag-assets command: ingest reports into the project's Dagster instance, answer and evaluate question
sets, open the UI, measure. (The verbs live by group in cli/: setup_verbs, answering, benches, ui.)"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from rag_assets.cli.answering import add_answer_verbs
from rag_assets.cli.benches import add_bench_verbs
from rag_assets.cli.common import OneLineFormatter
from rag_assets.cli.ingest import Interrupted, ingest  # noqa: F401 (ingest: the verb's entry, used by tests)
from rag_assets.cli.setup_verbs import add_setup_verbs
from rag_assets.cli.storage_faults import storage_fault
from rag_assets.cli.ui import add_ui_verb
from rag_assets.storage.paths import data_root
from rag_assets.storage.textfiles import InputFileError

log = logging.getLogger("rag_assets")


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments are one 'error:' line (and exit 2), not a usage screen."""

    def error(self, message: str):
        self.exit(2, f"error: {self.prog}: {message} (see --help)\n")

def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="rag-assets", description=__doc__)
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = p.add_subparsers(dest="cmd", required=True)
    add_setup_verbs(sub)
    add_ui_verb(sub)
    add_answer_verbs(sub)
    add_bench_verbs(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, or bad arguments (already said in one line)
        return int(exc.code or 0)
    handler = logging.StreamHandler()
    handler.setFormatter(OneLineFormatter("%(asctime)s %(name)s %(message)s"))
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, handlers=[handler])
    from rag_assets.llm.embedded import BackendMissing
    from rag_assets.config import SettingsError
    from rag_assets.llm.models import ModelFetchError
    from rag_assets.answer.service.lineage import LineageBusy

    if args.cmd.startswith("bench") or args.cmd == "evaluate":  # figures are only comparable on one CPU kind
        from rag_assets.storage.machine import machine_line

        print(machine_line(), flush=True)
    try:
        return int(args.func(args) or 0)
    except (BackendMissing, ModelFetchError, SettingsError, InputFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except LineageBusy as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except Interrupted as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 128 + exc.signo
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of our output left ('| head -1'): no traceback, nothing more to write
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except SystemExit as exc:  # verbs exit early on bad input: report, keep the exit code
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
            return 2
        return int(exc.code or 0)
    except Exception as exc:  # a full or read-only disk is one line; anything else is a bug worth its traceback
        said = storage_fault(exc, _written_folders(args))
        if said is None:
            raise
        print(f"error: {said}", file=sys.stderr)
        return 1

def _written_folders(args) -> list[Path]:
    """The folders a command writes: its output file's, the data root and the Dagster instance."""
    from rag_assets.orchestration.instance import dagster_home

    out = [Path(args.out).resolve().parent] if getattr(args, "out", None) else []
    return [*out, data_root(), dagster_home()]


def run() -> None:
    """The console script. When a Ctrl-C abandoned answering calls in flight, the process ends at once with
    main's code: Python's shutdown would stop those threads inside native code (a query embedding, a socket
    read), and that aborts the process (SIGABRT, 'FATAL: exception not rethrown') instead of exiting 130. Every
    answer made is already in the answer log (written and synced one by one)."""
    from rag_assets.answer.service.run import abandoned_workers

    code = main()
    if abandoned_workers():
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
