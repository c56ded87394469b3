import os

from quire.airflow_runtime import SLOTS_PER_CORE, task_slots
from quire.settings import Settings


def test_task_slots_default_to_two_per_core():
    assert task_slots(Settings()) == SLOTS_PER_CORE * (os.cpu_count() or 1) == 2 * (os.cpu_count() or 1)


def test_quire_task_slots_names_the_parallelism(monkeypatch):
    monkeypatch.setenv("QUIRE_TASK_SLOTS", "3")
    assert task_slots(Settings()) == 3

