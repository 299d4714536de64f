"""``bonanza-relay``: the command line that starts a relay and stops it cleanly."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sqlite3
import sys

from bonanza.core.settings import DEFAULT_PORT, DISCOVERY_BROADCAST, DISCOVERY_PORT, SettingError, discovery_target

from .clock import ScaledClock
from .folder_lock import FolderBusy
from .keys import KeyFileError
from .limits import Limits
from .server import Relay


class StartupError(Exception):
    """The relay cannot start: a one-line reason for the person who started it."""


def default_data_dir() -> str:
    """``$BONANZA_DATA_DIR/relay`` (as the game's own store), else the user data folder's."""
    if os.environ.get("BONANZA_DATA_DIR"):
        return os.path.join(os.environ["BONANZA_DATA_DIR"], "relay")
    import platformdirs
    return os.path.join(platformdirs.user_data_dir("bonanza", appauthor=False), "relay")


DATA_ANY = 9      # folders --data-any tries: <data>, <data>-2 ... <data>-9


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return port


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 10 ** 7:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text!r}")
    return value


async def _serve(args: argparse.Namespace) -> None:
    limits = Limits()
    if args.max_rate:
        limits.rate = limits.burst = args.max_rate
        limits.kill_burst = 4 * args.max_rate
    if args.max_conns_per_address:
        limits.conns_per_address = args.max_conns_per_address
    if args.max_lobbies_per_address:
        limits.lobbies_per_address = args.max_lobbies_per_address
        limits.lobbies = max(limits.lobbies, args.max_lobbies_per_address)
    first = args.data or default_data_dir()
    # --data-any (a window's hosted relay): the first of <data>, <data>-2, ... that no other
    # relay holds, so a second relay on one machine gets a folder (and a journal) of its own
    folders = [first] + ([f"{first}-{n}" for n in range(2, DATA_ANY + 1)] if args.data_any else [])
    clock = ScaledClock(args.clock_speed) if args.clock_speed else None
    for data in folders:
        try:
            relay = Relay(data, clock=clock, bot_delay=args.bot_delay, limits=limits,
                          idle_exit=args.idle_exit,
                          daily_per_address=not args.daily_any_address,
                          discovery=(args.discovery_host, args.discovery_port)
                          if args.discovery_port else None, name=args.name)
            break
        except KeyFileError as e:
            raise StartupError(f"{e} (or choose another folder with --data)") from None
        except FolderBusy as e:
            if data == folders[-1]:
                raise StartupError(str(e)) from None
        except (OSError, sqlite3.Error) as e:
            raise StartupError(f"cannot use the data folder {data}: "
                               f"{getattr(e, 'strerror', None) or e} (choose another with --data)"
                               ) from None
    try:
        port = await relay.start(args.host, args.port)
    except OSError as e:
        await relay.close()
        raise StartupError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}"
                           " (is another relay using that port? try --port 0)") from None
    print(f"listening on {args.host}:{port}", flush=True)
    if relay.discovery_port:
        print(f"answering discovery on UDP {args.discovery_host}:{relay.discovery_port}",
              flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - Windows
            signal.signal(sig, lambda *_: loop.call_soon_threadsafe(stop.set))
    stopped = loop.create_task(stop.wait())
    idle = loop.create_task(relay.idle.wait())
    await asyncio.wait({stopped, idle}, return_when=asyncio.FIRST_COMPLETED)
    if relay.idle.is_set():
        try:    # a hosted relay outlives its window, and the pipe it printed its port to
            print(f"no connection and no game for {args.idle_exit:g} s: stopping", flush=True)
        except OSError:
            pass
    for t in (stopped, idle):
        t.cancel()
    await relay.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bonanza-relay", description="Run a Bonanza table relay.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT,
                   help=f"TCP port, 0 for any free one (default {DEFAULT_PORT})")
    p.add_argument("--data", default=None, help="folder for finished logs and the daily database")
    p.add_argument("--data-any", action="store_true",
                   help="when another relay holds the data folder, use the first of "
                        "FOLDER-2, FOLDER-3, ... that none holds")
    p.add_argument("--bot-delay", type=float, default=0.6,
                   help="seconds a bot waits before each action (default 0.6)")
    p.add_argument("--max-rate", type=float, default=None,
                   help="messages per second allowed per connection (default 30; benchmarks)")
    p.add_argument("--max-lobbies-per-address", type=int, default=None, metavar="N",
                   help="tables not yet started one address may host (default 8; benchmarks)")
    p.add_argument("--max-conns-per-address", type=int, default=None, metavar="N",
                   help="open connections from one address (default 64; benchmarks)")
    # BONANZA_DISCOVERY=host:port (tests, CI) keeps discovery on that address: a relay
    # started by a test never answers anyone but the machine itself.
    try:
        env_host, env_port = discovery_target(os.environ.get("BONANZA_DISCOVERY"))
    except SettingError as e:
        p.error(str(e))
    listen_host = "0.0.0.0" if env_host == DISCOVERY_BROADCAST else env_host
    p.add_argument("--discovery-port", type=_port, default=env_port, metavar="N",
                   help=f"UDP port answering 'Find tables on this network' (default "
                        f"{DISCOVERY_PORT}; 0 = not announced)")
    p.add_argument("--discovery-host", default=listen_host,
                   help="address the discovery port listens on (default all)")
    p.add_argument("--name", default=None, help="the relay's name in discovery answers "
                                                "(default the computer's name)")
    p.add_argument("--idle-exit", type=_seconds, default=None, metavar="SECONDS",
                   help="stop after this long with no connection and no running game "
                        "(the game window starts its relay with this, so it never lingers)")
    p.add_argument("--daily-any-address", action="store_true",
                   help="allow several daily attempts from one address (a shared network "
                        "where players are known to each other); by default one per address")
    p.add_argument("--clock-speed", type=_seconds, default=None, metavar="FACTOR",
                   help="run the game clock FACTOR times faster (turns, bots, idle exit; "
                        "tests and demos)")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        stream=sys.stderr, format="%(asctime)s %(levelname)s %(message)s")
    try:
        asyncio.run(_serve(args))
    except KeyboardInterrupt:
        pass
    except StartupError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
