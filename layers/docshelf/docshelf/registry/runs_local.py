"""Agentic run and step records in the local registry's SQLite file, insert-only (no UPDATE, no REPLACE)."""

from __future__ import annotations

import sqlite3
from dataclasses import astuple
from pathlib import Path

from docshelf.registry.run_records import RUN_FIELDS, STEP_FIELDS, RecordExistsError, RunRecord, StepRecord
from docshelf.registry.sqlite import SqliteFile

_STEP_ORDER = "CAST(substr(step_id, 2) AS INTEGER)"  # s1, s2, ..., s10 in plan order
_SEP = "\x1f"  # joins the tuple fields (step ids, chunk ids never hold it)
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS agentic_runs ({", ".join(RUN_FIELDS)}, PRIMARY KEY (run_id));
CREATE TABLE IF NOT EXISTS agentic_steps ({", ".join(STEP_FIELDS)}, PRIMARY KEY (run_id, step_id));
"""


class LocalRunLog:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # synchronous FULL (SQLite's default): a run record, once answered, is never lost
        self._db = SqliteFile(self.path, _SCHEMA, sharing="per_thread", synchronous="FULL", isolation_level="IMMEDIATE")
        with self._db.transaction():
            pass

    def append_step(self, record: StepRecord) -> None:
        values = list(astuple(record))
        values[STEP_FIELDS.index("depends_on")] = _SEP.join(record.depends_on)
        values[STEP_FIELDS.index("result_ids")] = _SEP.join(record.result_ids)
        self._insert("agentic_steps", STEP_FIELDS, values, f"step {record.step_id} of run {record.run_id}")

    def append_run(self, record: RunRecord) -> None:
        values = list(astuple(record))
        values[RUN_FIELDS.index("truncated")] = int(record.truncated)
        self._insert("agentic_runs", RUN_FIELDS, values, f"run {record.run_id}")

    def _insert(self, table: str, columns: list[str], values: list[object], what: str) -> None:
        placeholders = ", ".join("?" for _ in columns)
        try:
            with self._db.transaction() as db:
                db.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({placeholders})", values)
        except sqlite3.IntegrityError:
            raise RecordExistsError(f"{what} is already recorded") from None

    def get_run(self, run_id: str) -> tuple[RunRecord, list[StepRecord]] | None:
        with self._db.transaction() as db:
            row = db.execute(f"SELECT {', '.join(RUN_FIELDS)} FROM agentic_runs WHERE run_id = ?", (run_id,)).fetchone()
            steps = db.execute(
                f"SELECT {', '.join(STEP_FIELDS)} FROM agentic_steps WHERE run_id = ? ORDER BY {_STEP_ORDER}",
                (run_id,),
            ).fetchall()
        if row is None:
            return None
        values = list(row)
        values[RUN_FIELDS.index("truncated")] = bool(values[RUN_FIELDS.index("truncated")])
        return RunRecord(*values), [_step(step) for step in steps]


def _step(row: tuple[object, ...]) -> StepRecord:
    values = list(row)
    for name in ("depends_on", "result_ids"):
        text = str(values[STEP_FIELDS.index(name)])
        values[STEP_FIELDS.index(name)] = tuple(text.split(_SEP)) if text else ()
    return StepRecord(*values)  # type: ignore[arg-type]
