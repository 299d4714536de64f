"""``python -m client.commands ...`` is ``bonanza ...``."""
import sys

from . import main

sys.exit(main())
