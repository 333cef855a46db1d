"""The games this repository ships and the local port each service uses by
default (``make run`` and a bare gateway agree on them through this table)."""

GAME_PORTS = {
    "ghostone": 8101,
    "gematon": 8102,
    "vectron": 8103,
    "gizmos": 8104,
    "threemagic": 8105,
}


def default_service_urls(host: str = "127.0.0.1") -> dict[str, str]:
    return {game: f"http://{host}:{port}" for game, port in GAME_PORTS.items()}
