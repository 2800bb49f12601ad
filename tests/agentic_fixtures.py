"""Documents with sections in two namespaces, ingested through the real pipeline, for the agentic tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docshelf.agentic.navigate import StoreNavSource
from docshelf.agentic.steps import StepContext
from docshelf.graph.source import BuiltGraphSource
from docshelf.local.services import LocalServices

VALVES = b"""# Valves

## Torque

Flange bolts of the TX-100 valve take 45 Nm. Use a calibrated torque wrench.

## Warranty

The TX-100 valve has a warranty of 2 years from delivery.

The TX-200 valve has a warranty of 5 years from delivery.

## Storage

Keep spare valves dry, between 5 and 30 degrees.
"""
PUMP = b"""# Pump guide

## Maintenance

The pump seal is replaced every 2000 operating hours. Check the impeller for wear.

## Safety

Lock out the motor before opening the casing.
"""
RELEASES = b"""# Release notes

## Version 2.3.1

Version 2.3.1 fixes the login timeout (ticket OPS-412) and the export crash (ticket OPS-418).

## Version 2.3.0

Version 2.3.0 adds the audit log and the bulk import.
"""
OTHER = b"""# Payroll

## Salaries

The pump seal budget and the TX-100 valve warranty money are confidential.
"""


def ingest_documents(root: Path, **engine: Any) -> LocalServices:
    """`engine`: LocalServices.open's index options (the embedded index without)."""
    services = LocalServices.open(root, chunk_tokens=32, overlap_tokens=0, **engine)  # a chunk a section or so
    services.ingest(VALVES, namespace="ns", source_key="valves.md")
    services.ingest(PUMP, namespace="ns", source_key="pump.md")
    services.ingest(RELEASES, namespace="ns", source_key="releases.md")
    services.ingest(OTHER, namespace="other", source_key="payroll.md")
    for filler in range(12):  # enough chunks that top_k does not return the whole namespace
        text = f"# Note {filler}\n\nShipping note number {filler} about cartons, pallets and labels.\n"
        services.ingest(text.encode(), namespace="ns", source_key=f"note{filler}.md")
    return services


def context(services: LocalServices, namespace: str = "ns", top_k: int = 4) -> StepContext:
    index = services.index.reader(namespace, services.registry.namespace_version(namespace))
    return StepContext(
        index,
        namespace,
        top_k,
        nav_source=StoreNavSource(services.store),
        graph_source=BuiltGraphSource(services.store, lambda _: index),
    )
