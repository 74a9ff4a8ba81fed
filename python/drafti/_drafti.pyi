"""Type hints of the extension module's functions that the package's own sources call; the
public classes and jobs are typed in ``__init__.pyi``. Partial: other names are untyped."""

from typing import Any, Optional

def hub_serve(
    variant: Optional[str] = None,
    hash_mb: int = 64,
    nodes: Optional[int] = None,
    depth: Optional[int] = None,
    king_count: int = 12,
) -> None: ...

# The convention of a partial stub: names not written here are still the module's.
def __getattr__(name: str) -> Any: ...
