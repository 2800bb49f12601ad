"""What the MCP tools do, over the very service functions the HTTP routes call (no second search path).

Each tool takes the API's services and the verified `Caller`, checks its arguments against the API's own JSON Schemas,
and answers a `ToolAnswer`: the text an assistant reads (evidence with numbered citations, an outline, a section)
and the structured data an application reads. The caller authorizes every namespace before anything is read, so a
token's namespaces bound every tool as they bound every route; the search cache is keyed by the caller's user.
Nothing here imports the MCP SDK: `docshelf.mcp.server` registers these functions with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docshelf.api.auth import ALL_NAMESPACES, Caller
from docshelf.api.errors import BadRequestError, NotFoundError
from docshelf.api.links import absolute_links
from docshelf.api.responses import validated
from docshelf.api.routes_search import to_search_request
from docshelf.api.schemas import DOCUMENT_ID, SEARCH_BODY
from docshelf.api.service import ApiServices, list_documents, run_search
from docshelf.citations import citation
from docshelf.index.plan import SearchFilters
from docshelf.model import Chunk
from docshelf.search.packing import is_heading_only, pack_evidence
from docshelf.search.request import DEFAULT_MAX_TOKENS

MAX_SECTION_CHUNKS = 2_000  # one document's chunks read for an outline's section (a whole book is fewer)
OUTLINE_SUMMARY_CHARS = 240


@dataclass(frozen=True, slots=True)
class ToolAnswer:
    text: str  # what the model reads
    data: dict[str, Any]  # the structured result


@dataclass(frozen=True, slots=True)
class SearchArguments:
    query: str
    namespace: str | None = None
    top_k: int | None = None
    max_tokens: int | None = None
    documents: Sequence[str] = ()
    exclude_documents: Sequence[str] = ()
    exclude_sections: Sequence[str] = ()
    chunk_types: Sequence[str] = ()

    def body(self, namespace: str, mode: str) -> dict[str, Any]:
        """The POST /search body these arguments are, so the API's schema checks them."""
        filters = {
            name: list(values)
            for name, values in (
                ("documents", self.documents),
                ("exclude_documents", self.exclude_documents),
                ("exclude_sections", self.exclude_sections),
                ("chunk_types", self.chunk_types),
            )
            if values
        }
        body: dict[str, Any] = {"namespace": namespace, "query": self.query, "mode": mode, "filters": filters}
        for name in ("top_k", "max_tokens"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        return body


def namespace_for(caller: Caller, namespace: str | None, default: str | None = None) -> str:
    """The namespace a tool reads: the argument, else the server's default, else the token's only namespace."""
    chosen = namespace or default
    if not chosen:
        named = sorted(caller.namespaces - {ALL_NAMESPACES})
        if len(named) == 1 and ALL_NAMESPACES not in caller.namespaces:
            chosen = named[0]
        else:
            allowed = ", ".join(named) if named else "any namespace"
            raise BadRequestError(f"name the namespace to read; this token allows {allowed}")
    return caller.authorize(chosen)


def search_tool(services: ApiServices, caller: Caller, args: SearchArguments, default: str | None = None) -> ToolAnswer:
    """The classic search of POST /search: evidence text with numbered citations, and the ranked results."""
    namespace = namespace_for(caller, args.namespace, default)
    request = to_search_request(validated(args.body(namespace, "classic"), SEARCH_BODY, ("arguments",)))
    payload, _hit = run_search(services, caller, request)
    return _search_answer(payload)


def agentic_search_tool(
    services: ApiServices, caller: Caller, args: SearchArguments, default: str | None = None
) -> ToolAnswer:
    """The agentic search of POST /search with mode "agentic": a plan of searches and section navigation, with
    max_tokens as the whole plan's budget."""
    from docshelf.api.service_agentic import run_agentic_search  # the agentic package loads only when used

    namespace = namespace_for(caller, args.namespace, default)
    body = validated(args.body(namespace, "agentic"), SEARCH_BODY, ("arguments",))
    payload, _hit = run_agentic_search(services, caller, to_search_request(body))
    answer = _search_answer(payload)
    plan = payload.get("plan")
    if plan is not None:
        answer.data["plan"] = plan
    if payload.get("run_id"):
        answer.data["run_id"] = payload["run_id"]
    return answer


def _search_answer(payload: Mapping[str, Any]) -> ToolAnswer:
    results = [_cited_result(number, result) for number, result in enumerate(payload["results"], start=1)]
    data = {
        "evidence_text": payload["evidence_text"],
        "evidence_tokens": payload.get("evidence_tokens", 0),
        "total_chunks": payload["total_chunks"],
        "corrections": payload.get("corrections", {}),
        "cache": payload["cache"],
        "results": results,
    }
    text = payload["evidence_text"]
    if not text:
        text = "No chunk of this namespace matches the query. Try other words, or list_documents to see what it holds."
    if data["corrections"]:
        fixed = ", ".join(f"{wrong} -> {right}" for wrong, right in data["corrections"].items())
        text = f"(searched with corrected spelling: {fixed})\n\n{text}"
    return ToolAnswer(text, data)


def with_absolute_links(answer: ToolAnswer, headers: Mapping[str, str] | None) -> ToolAnswer:
    """A search answer whose `docshelf serve` image links are absolute (and so open in a chat UI), when the call
    came over HTTP; other answers as they are."""
    if "evidence_text" not in answer.data or not headers:
        return answer
    linked = absolute_links({**answer.data, "results": answer.data["results"]}, headers)
    text = answer.text.replace(answer.data["evidence_text"], linked["evidence_text"])
    return ToolAnswer(text, linked)


def _cited_result(number: int, result: Mapping[str, Any]) -> dict[str, Any]:
    """One ranked chunk with what a citation needs (the result's rank is the evidence's `[n]` where it fits)."""
    cited = {
        "rank": number,
        "document_id": result["document_id"],
        "chunk_id": result["chunk_id"],
        "source_file_name": result["source_file_name"],
        "section_path": list(result["section_path"]),
        "pages": list(result["pages"]),
        "chunk_type": result["chunk_type"],
        "score": result["score"],
        "text": result["text"],
    }
    for optional in ("source_key", "source_url", "asset", "agent_score", "step_id"):
        if optional in result:
            cited[optional] = result[optional]
    return cited


def list_documents_tool(
    services: ApiServices, caller: Caller, namespace: str | None, status: str | None = None, default: str | None = None
) -> ToolAnswer:
    """The namespace's documents (GET /documents), optionally only those of one status."""
    chosen = namespace_for(caller, namespace, default)
    listed = list_documents(services, caller, chosen, status=status or None)
    documents = listed["documents"]
    lines = [
        f"- {d['source_key']} (document_id {d['document_id']}): {d['status']}, {d['chunk_count']} chunks"
        + (f", {d['pages']} pages" if d.get("pages") else "")
        + (f" - {d['error_message']}" if d.get("error_message") else "")
        for d in documents
    ]
    empty = f"Namespace {chosen} holds no documents" + (f" of status {status}" if status else "")
    text = "\n".join(lines) if lines else empty
    if listed["next_cursor"]:
        text += f"\n(the first {len(documents)} documents; filter by status to see others)"
    return ToolAnswer(text, {"namespace": chosen, "documents": documents, "more": bool(listed["next_cursor"])})


def document_outline_tool(
    services: ApiServices, caller: Caller, namespace: str | None, document_id: str, default: str | None = None
) -> ToolAnswer:
    """The document's section tree (its doc_nav.json): titles, levels, chunk counts and section summaries."""
    chosen = namespace_for(caller, namespace, default)
    record = _record(services, chosen, document_id)
    nav = _nav_of(services, chosen, document_id)
    sections = [_outline_section(item) for item in nav.get("sections", []) if isinstance(item, Mapping)]
    lines = [f"{record['source_file_name']} (document_id {document_id}): {nav.get('title') or ''}".rstrip(": ")]
    lines += _outline_lines(sections, 0)
    if nav.get("unsectioned_chunk_count"):
        lines.append(f"(and {nav['unsectioned_chunk_count']} chunks before the first heading)")
    data = {
        "namespace": chosen,
        "document_id": document_id,
        "source_file_name": record["source_file_name"],
        "title": nav.get("title", ""),
        "unsectioned_chunk_count": nav.get("unsectioned_chunk_count", 0),
        "sections": sections,
    }
    return ToolAnswer("\n".join(lines), data)


def _outline_section(item: Mapping[str, Any]) -> dict[str, Any]:
    children = [_outline_section(child) for child in item.get("children", []) if isinstance(child, Mapping)]
    return {
        "title": str(item.get("title", "")),
        "level": int(item.get("level", 1)),
        "chunk_count": int(item.get("chunk_count", 0)),
        "summary": str(item.get("summary", "")),
        "children": children,
    }


def _outline_lines(sections: Sequence[Mapping[str, Any]], depth: int) -> list[str]:
    lines = []
    for section in sections:
        summary = " ".join(section["summary"].split())[:OUTLINE_SUMMARY_CHARS]
        line = f"{'  ' * depth}- {section['title']} ({section['chunk_count']} chunks)"
        lines.append(line + (f": {summary}" if summary else ""))
        lines += _outline_lines(section["children"], depth + 1)
    return lines


def read_section_tool(
    services: ApiServices,
    caller: Caller,
    namespace: str | None,
    document_id: str,
    section_path: Sequence[str],
    max_tokens: int | None = None,
    default: str | None = None,
) -> ToolAnswer:
    """The chunks of one section (and its subsections) in document order, with citations, within max_tokens."""
    chosen = namespace_for(caller, namespace, default)
    budget = validated(max_tokens or DEFAULT_MAX_TOKENS, SEARCH_BODY["properties"]["max_tokens"], ("max_tokens",))
    _record(services, chosen, document_id)
    path = tuple(section_path)
    if path and not _has_section(_nav_of(services, chosen, document_id).get("sections", []), path):
        raise NotFoundError(
            f"document {document_id} has no section {' > '.join(path)}; document_outline lists its section titles"
        )
    index = services.index_for(chosen)
    chunks = index.list_chunks(chosen, SearchFilters(documents=(document_id,)), MAX_SECTION_CHUNKS)
    read_path, inside = _section_chunks([c for c in chunks if c.document_id == document_id], path)
    if not inside:
        raise NotFoundError(
            f"document {document_id} has no section {' > '.join(path) or '(top)'}; "
            "document_outline lists its section titles"
        )
    packed = pack_evidence(inside, {}, budget)  # no query: whole chunks in document order, as many as fit
    shown = {block.chunk.chunk_id for block in packed.blocks}
    left_out = sum(1 for chunk in inside if chunk.chunk_id not in shown and not is_heading_only(chunk))
    data = {
        "namespace": chosen,
        "document_id": document_id,
        "section_path": list(path),
        "read_section_path": list(read_path),
        "chunks": [_section_chunk(chunk) for chunk in inside if chunk.chunk_id in shown],
        "chunk_count": len(inside),
        "truncated": left_out > 0,
        "evidence_tokens": packed.tokens,
    }
    text = packed.text
    if left_out:
        text += f"\n\n({left_out} more chunks of this section did not fit max_tokens {budget})"
    return ToolAnswer(text, data)


def _section_chunks(chunks: Sequence[Chunk], path: tuple[str, ...]) -> tuple[tuple[str, ...], list[Chunk]]:
    """(the section read, its chunks): the section and its subsections, or, when no chunk starts in it (one chunk
    holds several short sections and starts in their parent), the chunks of its nearest enclosing section that has
    some, which hold its text."""
    for depth in range(len(path), 0 if path else -1, -1):
        prefix = path[:depth]
        found = [c for c in chunks if c.section_path[:depth] == prefix]
        if depth < len(path):
            found = [c for c in chunks if c.section_path == prefix]
        if found:
            return prefix, found
    return path, []


def _has_section(sections: Any, path: tuple[str, ...]) -> bool:
    for item in sections if isinstance(sections, list) else []:
        found = isinstance(item, Mapping) and item.get("title") == path[0]
        if found and (len(path) == 1 or _has_section(item.get("children"), path[1:])):
            return True
    return False


def _section_chunk(chunk: Chunk) -> dict[str, Any]:
    return {
        "chunk_id": chunk.chunk_id,
        "chunk_type": chunk.type,
        "section_path": list(chunk.section_path),
        "pages": list(chunk.pages),
        "citation": citation(chunk),
        "text": chunk.text,
    }


def _record(services: ApiServices, namespace: str, document_id: str) -> dict[str, Any]:
    from docshelf.api.service import record_to_dict

    validated(document_id, DOCUMENT_ID, ("document_id",))
    record = services.registry.get(namespace, document_id)
    if record is None or record.status == "deleted":
        raise NotFoundError(f"no document {document_id} in namespace {namespace}; list_documents names them")
    return record_to_dict(record)


def _nav_of(services: ApiServices, namespace: str, document_id: str) -> Mapping[str, Any]:
    source = getattr(services, "nav_source", None)
    nav: Mapping[str, Any] | None = source.load(namespace, document_id) if source is not None else None
    if nav is None:
        raise NotFoundError(f"document {document_id} has no outline (it was not chunked, or failed to parse)")
    return nav
