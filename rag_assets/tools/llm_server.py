"""The embedded model served as an OpenAI-compatible endpoint on 127.0.0.1 (``/v1/chat/completions``,
``/v1/models``), for the parallel answering route (``--base-url``, ``parallel_requests``) tried on one machine:

    python -m rag_assets.tools.llm_server --model qwen2.5-coder-0.5b --port 8081

One model answers one request at a time (requests wait in turn); a ``response_format`` JSON schema is decoded
with the same grammar as the embedded route. ``fail_every`` answers every n-th request with a 503, as a
loaded server does, so that a client's retries can be tested on a real server."""

from __future__ import annotations

import argparse
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def _schema(response_format: dict | None) -> dict | None:
    if not response_format:
        return None
    if response_format.get("type") == "json_schema":
        return (response_format.get("json_schema") or {}).get("schema")
    return response_format.get("schema")


class Served:
    """One embedded client behind a lock, and the count of requests (for ``fail_every``)."""

    def __init__(self, client, name: str, fail_every: int = 0):
        self.client, self.name, self.fail_every = client, name, fail_every
        self.lock = threading.Lock()
        self.requests = 0

    def complete(self, body: dict) -> tuple[int, dict]:
        with self.lock:
            self.requests += 1
            if self.fail_every and self.requests % self.fail_every == 0:
                return 503, {"error": {"message": "overloaded, try again", "type": "server_error"}}
            resp = self.client.chat(body["messages"], _schema(body.get("response_format")),
                                    int(body.get("max_tokens") or body.get("max_completion_tokens") or 800))
        return 200, {
            "id": f"chatcmpl-{self.requests}", "object": "chat.completion", "created": int(time.time()),
            "model": self.name,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": resp.text},
                         "finish_reason": "length" if resp.truncated else "stop"}],
            "usage": {"prompt_tokens": resp.prompt_tokens, "completion_tokens": resp.completion_tokens,
                      "total_tokens": resp.prompt_tokens + resp.completion_tokens},
        }


def handler(served: Served) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - the stdlib's name
            if not self.path.rstrip("/").endswith("/chat/completions"):
                return self._send(404, {"error": {"message": f"no route {self.path}"}})
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                status, out = served.complete(body)
            except (ValueError, KeyError, TypeError) as exc:
                status, out = 400, {"error": {"message": f"bad request: {exc}", "type": "invalid_request_error"}}
            self._send(status, out)

        def do_GET(self):  # noqa: N802
            if self.path.rstrip("/").endswith("/models"):
                return self._send(200, {"object": "list", "data": [{"id": served.name, "object": "model"}]})
            self._send(404, {"error": {"message": f"no route {self.path}"}})

        def _send(self, status: int, out: dict) -> None:
            data = json.dumps(out).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, fmt, *a):
            pass

    return Handler


def serve(client, name: str, port: int = 0, fail_every: int = 0) -> tuple[ThreadingHTTPServer, Served]:
    """A server of ``client`` on 127.0.0.1:``port`` (0: any free one); call ``serve_forever``."""
    served = Served(client, name, fail_every)
    return ThreadingHTTPServer(("127.0.0.1", port), handler(served)), served


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default="qwen2.5-coder-1.5b", help="an embedded model name or a .gguf path")
    p.add_argument("--port", type=int, default=8081)
    p.add_argument("--fail-every", type=int, default=0)
    args = p.parse_args()
    from rag_assets.config import get_config
    from rag_assets.llm.factory import build_llm

    client = build_llm(get_config("local", answer_model=args.model))
    server, _ = serve(client, args.model, args.port, args.fail_every)
    print(f"serving {args.model} on http://127.0.0.1:{server.server_port}/v1", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
