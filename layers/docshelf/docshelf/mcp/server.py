"""The MCP server (the official SDK's `MCPServer`): five tools over `docshelf.mcp.tools`.

Every tool answers the text an assistant reads as its content (evidence with numbered `[n]` citations, an outline,
a section) and the structured data as `structuredContent`. Who calls comes from the transport, never from an
argument: `stdio` serves one local caller (`docshelf mcp`), the HTTP endpoints put the caller their token verified
into the request (`docshelf.mcp.http`). A refused namespace, a bad argument or a missing document is a tool error
whose message says what to do, as the API's JSON errors do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from docshelf.api.auth import Caller
from docshelf.api.limits import MAX_EVIDENCE_TOKENS, MAX_FILTER_VALUES, MAX_QUERY_CHARS, TOP_K_LIMIT
from docshelf.api.responses import RequestValidationError
from docshelf.api.service import ApiServices
from docshelf.errors import DocshelfError
from docshelf.mcp.http import CALLER_SCOPE_KEY
from docshelf.mcp.tools import (
    SearchArguments,
    ToolAnswer,
    agentic_search_tool,
    document_outline_tool,
    list_documents_tool,
    read_section_tool,
    search_tool,
    with_absolute_links,
)

SERVER_NAME = "docshelf"
INSTRUCTIONS = (
    "docshelf searches the documents of a namespace and answers cited, token-budgeted evidence. Start with search "
    "(or agentic_search for a question with several parts); cite the [n] headers of evidence_text. To read around "
    "a hit, call document_outline for the document's sections and read_section for one section's text. "
    "list_documents says which files a namespace holds and whether they were read."
)
CallerOf = Callable[["Context[Any]"], Caller]
SearchTool = Callable[[ApiServices, Caller, SearchArguments, "str | None"], ToolAnswer]
ChunkType = Literal["text", "table", "image"]
Status = Literal["processing", "ok", "partial", "failed", "needs_ocr", "deleted"]

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

NamespaceArg = Annotated[
    str | None,
    Field(
        description="The namespace (tenant) to read, e.g. 'handbook'. Optional when the server has a default "
        "namespace or the token allows exactly one.",
        pattern=r"^[a-z0-9][a-z0-9_-]{0,63}$",
    ),
]
QueryArg = Annotated[
    str,
    Field(
        description="What to find, in plain words (any language); part numbers and identifiers match exactly. "
        "Never query syntax.",
        min_length=1,
        max_length=MAX_QUERY_CHARS,
    ),
]
TopKArg = Annotated[
    int | None,
    Field(description=f"How many ranked chunks to return (1-{TOP_K_LIMIT}, default 8).", ge=1, le=TOP_K_LIMIT),
]
MaxTokensArg = Annotated[
    int | None,
    Field(
        description="The evidence budget in cl100k_base tokens (default 2000): evidence_text never exceeds it.",
        ge=1,
        le=MAX_EVIDENCE_TOKENS,
    ),
]
DocumentsArg = Annotated[
    list[str] | None,
    Field(description="Only these documents (document ids or file names).", max_length=MAX_FILTER_VALUES),
]
ExcludeDocumentsArg = Annotated[
    list[str] | None,
    Field(description="Leave out these documents (document ids or file names).", max_length=MAX_FILTER_VALUES),
]
ExcludeSectionsArg = Annotated[
    list[str] | None,
    Field(description="Leave out chunks under a section with one of these titles.", max_length=MAX_FILTER_VALUES),
]
ChunkTypesArg = Annotated[
    list[ChunkType] | None, Field(description="Only chunks of these types: text, table, image.", max_length=3)
]
DocumentIdArg = Annotated[
    str,
    Field(
        description="The document_id that search results, citations or list_documents give.",
        pattern=r"^[A-Za-z0-9_-]{1,128}$",
    ),
]


def build_mcp_server(
    services: Callable[[], ApiServices], caller_of: CallerOf, *, default_namespace: str | None = None
) -> MCPServer[Any]:
    """The server; `services` is called per tool call and `caller_of` says who makes it."""
    server: MCPServer[Any] = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, version="1.0.0", log_level="WARNING")

    def answered(run: Callable[[ApiServices, Caller], ToolAnswer], ctx: Context[Any]) -> CallToolResult:
        try:
            answer = with_absolute_links(run(services(), caller_of(ctx)), request_headers(ctx))
        except RequestValidationError as error:
            raise ToolError(error.message.replace("invalid request", "invalid arguments", 1)) from None
        except DocshelfError as error:
            raise ToolError(str(error)) from None
        return CallToolResult(content=[TextContent(type="text", text=answer.text)], structured_content=answer.data)

    def searching(tool: SearchTool) -> Callable[..., CallToolResult]:
        def run_search(
            ctx: Context[Any],
            query: QueryArg,
            namespace: NamespaceArg = None,
            top_k: TopKArg = None,
            max_tokens: MaxTokensArg = None,
            documents: DocumentsArg = None,
            exclude_documents: ExcludeDocumentsArg = None,
            exclude_sections: ExcludeSectionsArg = None,
            chunk_types: ChunkTypesArg = None,
        ) -> CallToolResult:
            args = SearchArguments(
                query, namespace, top_k, max_tokens, documents or (), exclude_documents or (),
                exclude_sections or (), chunk_types or (),
            )  # fmt: skip
            return answered(lambda api, caller: tool(api, caller, args, default_namespace), ctx)

        return run_search

    server.add_tool(
        searching(search_tool),
        name="search",
        title="Search documents",
        description="Search one namespace's documents and get cited evidence: evidence_text holds the best passages "
        "under [n] citation headers (file | section path | pages | document_id#chunk_id), within max_tokens; the "
        "structured results list the ranked chunks with their citation fields. Use it first for any question "
        "about the documents; cite the [n] you use.",
        annotations=READ_ONLY,
    )
    server.add_tool(
        searching(agentic_search_tool),
        name="agentic_search",
        title="Search with a plan",
        description="For a question with several parts or one that needs a document's structure (\"what is X, and "
        'what changed in Y?"): plans several searches and section navigation, runs them under one budget of '
        "max_tokens for the whole plan and returns cited evidence like search, plus the plan it ran. Slower than "
        "search; use search for one simple question.",
        annotations=READ_ONLY,
    )

    @server.tool(
        title="List documents",
        description="The documents of a namespace: file path, document_id, status (ok, partial, processing, failed, "
        "needs_ocr, deleted), chunk and page counts and any error. Use it to see what can be searched, or why a "
        "file gives no evidence.",
        annotations=READ_ONLY,
    )
    def list_documents(
        ctx: Context[Any],
        namespace: NamespaceArg = None,
        status: Annotated[Status | None, Field(description="Only documents of this status.")] = None,
    ) -> CallToolResult:
        return answered(lambda api, caller: list_documents_tool(api, caller, namespace, status, default_namespace), ctx)

    @server.tool(
        title="Document outline",
        description="A document's section tree: each section's title, level, chunk count and a short summary, "
        "nested. Use it after search to see where a hit sits and which sections to read next with read_section.",
        annotations=READ_ONLY,
    )
    def document_outline(
        ctx: Context[Any], document_id: DocumentIdArg, namespace: NamespaceArg = None
    ) -> CallToolResult:
        return answered(
            lambda api, caller: document_outline_tool(api, caller, namespace, document_id, default_namespace), ctx
        )

    @server.tool(
        title="Read a section",
        description="The text of one section of a document (with its subsections), in reading order, each chunk under "
        "a citation header, within max_tokens. section_path is the list of titles from the outline's top level "
        'down, e.g. ["Installation", "Requirements"]; [] reads the document from the start.',
        annotations=READ_ONLY,
    )
    def read_section(
        ctx: Context[Any],
        document_id: DocumentIdArg,
        section_path: Annotated[
            list[str], Field(description="Section titles from the top level down, as document_outline shows them.")
        ],
        namespace: NamespaceArg = None,
        max_tokens: MaxTokensArg = None,
    ) -> CallToolResult:
        return answered(
            lambda api, caller: read_section_tool(
                api, caller, namespace, document_id, section_path, max_tokens, default_namespace
            ),
            ctx,
        )

    return server


def request_headers(ctx: Context[Any]) -> Mapping[str, str] | None:
    """The HTTP request's headers (None over stdio)."""
    headers = getattr(ctx.request_context.request, "headers", None)
    return dict(headers) if headers is not None else None


def fixed_caller(caller: Caller) -> CallerOf:
    """Every call is this caller's (stdio: the local user and the namespaces `docshelf mcp` was given)."""
    return lambda _ctx: caller


def scope_caller(ctx: Context[Any]) -> Caller:
    """The caller the HTTP endpoint verified and put in the request's scope."""
    request = ctx.request_context.request
    scope = getattr(request, "scope", None)
    caller = scope.get(CALLER_SCOPE_KEY) if isinstance(scope, dict) else None
    if not isinstance(caller, Caller):
        raise ToolError("no verified token came with the request")
    return caller
