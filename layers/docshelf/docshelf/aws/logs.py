"""The Powertools logger every handler uses; its own module so the search function imports no more than this.

Powertools is imported here, in `observe` and in the handlers only, never by the core package.
"""

from __future__ import annotations

import logging

from aws_lambda_powertools import Logger
from aws_lambda_powertools.logging.utils import copy_config_to_registered_loggers


def make_logger() -> Logger:
    """A Powertools logger whose JSON lines always carry namespace and document_id, shared by the core's loggers."""
    logger = Logger()
    logger.append_keys(namespace="", document_id="")
    logging.getLogger("docshelf")  # register the core's parent logger so its children share the handler
    copy_config_to_registered_loggers(source_logger=logger, include={"docshelf"})
    return logger
