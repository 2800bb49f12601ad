"""Errors the API turns into HTTP statuses (the search core raises InvalidQueryError and InvalidNameError)."""

from __future__ import annotations

from docshelf.errors import DocshelfError


class ApiError(DocshelfError):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequestError(ApiError):
    status = 400


class UnauthorizedError(ApiError):
    """No identity, or a token that does not verify."""

    status = 401


class ForbiddenError(ApiError):
    """The token does not allow this namespace."""

    status = 403


class NotFoundError(ApiError):
    status = 404


class PayloadTooLargeError(ApiError):
    status = 413


class ThrottledError(ApiError):
    status = 429
