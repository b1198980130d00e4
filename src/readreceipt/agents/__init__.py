"""Agents: how readreceipt reaches an agent's work.

``fetchpage`` writes a page's own content to a file for an agent (``readreceipt fetch``),
fenced by ``fence`` as untrusted text; ``hook``, ``hookworker`` and ``hooksettings`` are the
Claude Code hooks and their installation; ``mcp_server`` offers the same as MCP tools.

These are adapters: they call :mod:`readreceipt.pipeline` and the store, never re-implement a
step, and never import the CLI or ``api``. May import: ``pipeline``, the stages, ``store``,
``errors``. ``hook`` keeps its capture path to the standard library; ``mcp_server`` alone
imports mcp.
"""
