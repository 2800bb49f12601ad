"""The MCP server: tools over the API's own services (`tools`), the SDK's server (`server`), and the streamable HTTP
endpoint that `docshelf serve` and the McpFunction hand requests to (`http`). Only `http` and `tools` import
without the SDK."""
