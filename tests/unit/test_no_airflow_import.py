"""include/quire must work where Airflow cannot be imported at all."""

import subprocess
import sys

SCRIPT = """
import sys, pkgutil, importlib
sys.modules["airflow"] = None  # any `import airflow...` now raises ImportError
import quire
for module in pkgutil.walk_packages(quire.__path__, "quire."):
    if ".migrations" in module.name:
        continue  # alembic loads these by path, they are not importable modules
    importlib.import_module(module.name)
print("ok", sum(1 for m in sys.modules if m.startswith("quire")))
"""


def test_every_quire_module_imports_without_airflow():
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok")
    assert not [m for m in result.stdout.split() if m.startswith("airflow")]
