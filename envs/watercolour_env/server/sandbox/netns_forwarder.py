"""Runs inside Chromium's network namespace, then becomes Chromium (standard library only).

    python3 -I netns_forwarder.py SOCKET_DIR PORT [PORT ...] -- CHROMIUM [ARG ...]

The namespace (made by `unshare --net --map-root-user` just before this starts) has one
interface, loopback, and no route anywhere. This brings loopback up, listens on 127.0.0.1:PORT
for each library-server port, and forks a relay that carries each connection to the Unix socket
SOCKET_DIR/PORT, where the renderer's library server answers (Unix sockets cross network
namespaces; nothing else here does). The parent then execs Chromium, so the process Playwright
started, and whose pipes it drives, is Chromium itself. The relay dies with it
(`PR_SET_PDEATHSIG`) and holds none of its pipes.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import signal
import socket
import struct
import sys
import threading

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
PR_SET_PDEATHSIG = 1
IFREQ = "16sH14x"  # struct ifreq: the name, then ifr_flags (a short) in the union


def loopback_up() -> None:
    """`ip link set lo up`, without iproute2."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        got = fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack(IFREQ, b"lo", 0))
        flags = struct.unpack(IFREQ, got)[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack(IFREQ, b"lo", flags | IFF_UP))


def pump(source: socket.socket, sink: socket.socket) -> None:
    """Copies `source` to `sink` until `source` ends, then half-closes both."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s, how in ((sink, socket.SHUT_WR), (source, socket.SHUT_RD)):
            try:
                s.shutdown(how)
            except OSError:
                pass


def relay(client: socket.socket, path: str) -> None:
    """Carries one TCP connection to the Unix socket `path` and back."""
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def serve(listener: socket.socket, path: str) -> None:
    """Relays every connection `listener` accepts, each on its own thread."""
    while True:
        client, _ = listener.accept()
        threading.Thread(target=relay, args=(client, path), daemon=True).start()


def main(argv: list[str]) -> None:
    """See the module docstring; never returns (it becomes Chromium or the relay)."""
    split = argv.index("--")
    socket_dir, ports, command = argv[0], argv[1:split], argv[split + 1 :]
    loopback_up()
    listeners = []
    for port in ports:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # not inheritable: exec closes it
        listener.bind(("127.0.0.1", int(port)))
        listener.listen(128)
        listeners.append((listener, os.path.join(socket_dir, port)))
    parent = os.getpid()
    if os.fork() == 0:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # Chromium already gone
            os._exit(0)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        # Playwright's pipes (3 and 4) and anything else inherited stay Chromium's alone
        keep = {listener.fileno() for listener, _ in listeners} | {0, 1, 2}
        for fd in range(3, 64):
            if fd not in keep:
                try:
                    os.close(fd)
                except OSError:
                    pass
        threads = [threading.Thread(target=serve, args=pair, daemon=True) for pair in listeners]
        for thread in threads:
            thread.start()
        threading.Event().wait()
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
