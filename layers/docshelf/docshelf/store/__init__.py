"""Object stores for parse caches and artifacts: a local folder, or S3 on AWS."""

from docshelf.store.base import ObjectStore
from docshelf.store.local import LocalStore

__all__ = ["LocalStore", "ObjectStore"]
