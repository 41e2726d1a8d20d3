"""`python -m pnp ...` and the `pnp` console script: the command line (pnp/cli.py), with a
Ctrl-C at any moment ending it in one line and exit 130, never a traceback.

The command line takes about a tenth of a second to import (typer, rich): an interrupt
then, or after the command has answered (while Python shuts down), comes to no command's
handler; here it does. Nothing here parses options: pnp.cli's `main` does all of it.
"""

# Only modules Python has loaded at its start (not even typing): the less there is to
# import, the shorter the moment when a Ctrl-C comes before `main` can catch it.
import os
import sys

EXIT_INTERRUPTED = 130  # as pnp.cli's, not imported: this module must work before pnp.cli is


def _interrupted(*_: object) -> None:
    """Say "interrupted" as an interrupted command does and end the process, at once (a
    signal handler: no exception, so no traceback, whatever Python is doing)."""
    try:
        sys.stdout.flush()  # what the command printed before
    except BaseException:
        pass
    try:
        os.write(2, b"interrupted\n")
    finally:
        os._exit(EXIT_INTERRUPTED)


def _end_on_interrupt() -> None:
    """The command is done or given up: a Ctrl-C from now on (in a handler below, in
    Python's shutdown, joining a pool's threads) ends the process rather than raise. Only
    in place of Python's own handler: a SIGINT ignored (`nohup`, `&` in a script) stays so."""
    import signal  # loaded by now (pnp.cli's imports)

    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted)
    except ValueError:  # called in a thread other than the main one: signals are not its own
        pass


def main() -> None:
    """Console-script entry point: pnp.cli's, imported and run within the interrupt's reach."""
    try:
        try:
            from .cli import main as command_line

            command_line()  # exits
        finally:
            _end_on_interrupt()
    except KeyboardInterrupt:  # before a command ran: pnp.cli's import, its option parsing
        _interrupted()


if __name__ == "__main__":
    main()
