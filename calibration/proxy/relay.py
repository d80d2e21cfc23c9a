"""The relay sidecar: the model proxy's face on a run's internal network.

A container on the run's internal network (alias `model-gateway`) and on one shared internal network whose bridge
gateway is the host, where the run's proxy listens. It forwards TCP to the proxy and nothing else. The agent's
container stays on the run network only, with no default route: it can reach its sidecars and this relay, and
through the relay only the proxy, which holds the key. Neither network routes off the machine.
"""

from __future__ import annotations

import threading

import docker
from docker.errors import APIError, NotFound

from authoring.sandbox.base_image import BASE_IMAGE
from authoring.sandbox.containers import wait_until_ready
from authoring.sandbox.session import ROLE_LABEL, Sandbox
from calibration.proxy import GATEWAY_HOST, GATEWAY_PORT

RELAY_NETWORK = "v3ast-model-relay"
READY = "relay ready"
RELAY_SOURCE = r"""
import asyncio, sys
host, port, listen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except Exception:
        pass
    finally:
        writer.close()
async def handle(reader, writer):
    try:
        up_reader, up_writer = await asyncio.open_connection(host, port)
    except OSError:
        writer.close()
        return
    await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
async def main():
    server = await asyncio.start_server(handle, "0.0.0.0", listen)
    print("relay ready", flush=True)
    await server.serve_forever()
asyncio.run(main())
"""
_network_lock = threading.Lock()


def relay_network(client: docker.DockerClient):
    """The shared internal network from which relays reach the host (created once, kept)."""
    with _network_lock:
        found = client.networks.list(names=[RELAY_NETWORK])
        if found:
            return client.networks.get(found[0].id)
        try:
            return client.networks.create(RELAY_NETWORK, driver="bridge", internal=True,
                                          labels={"v3ast.shared": "model-relay"})
        except APIError:
            return client.networks.get(RELAY_NETWORK)


def host_address(client: docker.DockerClient) -> str:
    """The host's address on the relay network: where a run's proxy listens."""
    network = relay_network(client)
    network.reload()
    configs = network.attrs.get("IPAM", {}).get("Config") or []
    gateway = next((c.get("Gateway") for c in configs if c.get("Gateway")), None)
    if not gateway:
        raise RuntimeError(f"network {RELAY_NETWORK} has no IPv4 gateway; remove it and run again")
    return gateway.split("/")[0]


def start_relay(sandbox: Sandbox, proxy_port: int) -> None:
    """Start the run's relay to the proxy at the host's address and `proxy_port`; removed with the sandbox."""
    client = sandbox.client
    target = host_address(client)
    container = client.containers.create(
        BASE_IMAGE, ["python3", "-c", RELAY_SOURCE, target, str(proxy_port), str(GATEWAY_PORT)],
        name=f"{GATEWAY_HOST}-{sandbox.run_id}", hostname=GATEWAY_HOST, user="65534:65534",
        labels={**sandbox.labels, ROLE_LABEL: "model-relay"}, network=RELAY_NETWORK, cap_drop=["ALL"],
        security_opt=["no-new-privileges"], mem_limit="128m", pids_limit=64, read_only=True)
    sandbox.add_container(container)
    try:
        sandbox.network.connect(container, aliases=[GATEWAY_HOST])
    except NotFound:
        raise RuntimeError("the run's network is gone") from None
    container.start()
    wait_until_ready(container, READY, "model relay")
