"""Write docs/openapi.json: the document the gateway serves with every game service up.

The gateway builds each game's paths and schemas from that game's service, so this
starts every installed game service on a local port (in threads, no Redis needed),
asks a gateway pointed at them for /openapi.json, and writes it (``make openapi``).
``tests/test_openapi_snapshot.py`` fails when the committed file is stale.
"""

import argparse
import json
import sys
import threading
from importlib import import_module
from pathlib import Path

from werkzeug.serving import make_server

from referee.stack import installed_games

ROOT = Path(__file__).resolve().parents[1]


def serve(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def document() -> dict:
    servers = {}
    for game, factory in installed_games().items():
        module = import_module(factory.partition(":")[0])
        servers[game] = serve(module.create_app())
    from referee_gateway import create_app
    gateway = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "GAME_SERVICES": {
        game: f"http://127.0.0.1:{server.server_port}" for game, server in servers.items()}})
    try:
        return gateway.test_client().get("/openapi.json").get_json()
    finally:
        for server in servers.values():
            server.shutdown()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", default=str(ROOT / "docs" / "openapi.json"),
                        help="where to write it (default docs/openapi.json; - for stdout)")
    args = parser.parse_args(argv)
    text = json.dumps(document(), indent=2, ensure_ascii=False) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
