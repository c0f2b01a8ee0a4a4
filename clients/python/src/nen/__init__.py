"""Nen for Python: post-quantum end-to-end payload encryption for HTTP APIs, as an httpx transport.

    import httpx, nen
    client = httpx.Client(transport=nen.Transport("k1:<base64url public key>"), base_url="https://api.example")
    client.post("/api/echo", json={"hello": "world"})

Wire format: PROTOCOL.md of the Nen repository (protocol 1.1). Error codes: ERROR_CODES.md.

Pitfall: a transport holds one session; keep one per server for the client's lifetime (a new
transport per request pays a full handshake each time).
"""

from .async_transport import AsyncTransport
from .errors import NenError, NenProtocolError
from .transport import Transport

__version__ = "0.1.0"
__all__ = ["AsyncTransport", "NenError", "NenProtocolError", "Transport", "__version__"]
