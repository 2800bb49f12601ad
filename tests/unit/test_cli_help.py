"""Every option and argument of every `docshelf` subcommand says what it is in `--help`."""

from __future__ import annotations

import argparse

from docshelf.local.cli import build_parser


def test_every_option_has_help_text() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    missing = [
        f"{name} {action.option_strings or action.dest}"
        for name, sub in commands.choices.items()
        for action in sub._actions
        if not isinstance(action, argparse._HelpAction) and action.help != argparse.SUPPRESS and not action.help
    ]
    assert missing == []
