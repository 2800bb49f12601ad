"""The document registry: status, active revision and event ordering per document."""

from docshelf.registry.base import DocumentRecord, DocumentStatus, Registry, sequencer_is_newer
from docshelf.registry.local import LocalRegistry

__all__ = ["DocumentRecord", "DocumentStatus", "LocalRegistry", "Registry", "sequencer_is_newer"]
