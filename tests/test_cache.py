"""The compiled-variant cache: same games, fast start-up, never a stale or
foreign entry (bones.games.cache)."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from bones.engine.rules import RulesError
from bones.games import cache
from bones.lang import describe
from bones.lang.compile import compile_rules
from bones.lang.load import load_variant
from bones.sim.simulation import Table, make_config, simulate

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_DIR, str(where))
    monkeypatch.delenv(cache.ENV_OFF, raising=False)
    return where


def from_disk(variant: object) -> bool:
    """Whether ``variant`` was read from a cache entry (not loaded from YAML)."""
    return isinstance(variant, cache.CachedVariant) and variant._model is None


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*" + cache.ENTRY_SUFFIX)) if folder.is_dir() else []


def test_a_builtin_comes_back_from_the_cache_with_the_same_tables(folder: Path) -> None:
    first = cache.load_builtin("all-fives")
    rules = compile_rules(first, 3)  # compiled, then remembered
    assert len(_entries(folder)) == 1
    again = cache.load_builtin("All-Fives")  # the key is the name in any case
    assert from_disk(again)
    restored = compile_rules(again, 3)
    assert again._model is None, "the cached tables were used, not the model"
    real = compile_rules(load_variant("all-fives"), 3)
    for name in ("owner", "count_points", "settle_domino", "settle_blocked", "lead_first",
                 "target", "spinner_mult", "hand_size", "check"):
        assert getattr(restored, name) == getattr(real, name) == getattr(rules, name), name
    assert restored.name == real.name == "all-fives"
    assert again.model_dump(mode="json") == load_variant("all-fives").model_dump(mode="json")


def test_every_builtin_table_comes_back_from_the_cache_field_for_field(folder: Path) -> None:
    # an entry is plain data (marshal): each compiled table of every built-in,
    # written on the first request and read on the next, equals the compiler's
    # own, every field (a settlement, lead rule, train layout or tile set
    # rebuilt from its fields)
    tables = 0
    for path in sorted(cache.builtin_dir().glob("*.yaml")):
        model = load_variant(path.stem)
        for players in model.players.counts:
            for teams in (None, True):
                try:
                    real = compile_rules(model, players, teams)
                except RulesError:
                    continue  # no partnership game at this count
                written = compile_rules(cache.load_builtin(path.stem), players, teams)
                hit = cache.load_builtin(path.stem)
                read = compile_rules(hit, players, teams)
                assert from_disk(hit), path.stem
                for f in fields(real):
                    if f.name != "variant":
                        want = getattr(real, f.name)
                        assert getattr(written, f.name) == want, (path.stem, players, f.name)
                        assert getattr(read, f.name) == want, (path.stem, players, f.name)
                tables += 1
    assert tables > 40


def test_cached_and_uncached_runs_play_the_same_games(folder: Path) -> None:
    def totals(variant: object) -> dict[str, object]:
        rules = compile_rules(variant, 2)
        table = Table("sniff", variant, rules.players, rules.teams)
        config = make_config([table], ["random", "greedy"], 30, seed=7)
        return simulate(config).totals()

    plain = totals(load_variant("sniff"))
    cache.load_builtin("sniff")
    compile_rules(cache.load_builtin("sniff"), 2)
    hit = cache.load_builtin("sniff")
    assert from_disk(hit)
    assert totals(hit) == plain
    # a worker receives the rules by pickle: a cached built-in travels with its tables
    clone = pickle.loads(pickle.dumps(compile_rules(hit, 2)))
    assert clone.count_points == compile_rules(load_variant("sniff"), 2).count_points


def test_editing_a_variant_or_the_compiler_makes_a_new_key(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    variants = tmp_path / "variants"
    shutil.copytree(cache.builtin_dir(), variants)
    engine = tmp_path / "bones"
    for module in cache.CATALOGUE:
        source = Path(cache.__file__).parent.parent / f"{module.replace('.', '/')}.py"
        (engine / source.parent.name).mkdir(parents=True, exist_ok=True)
        shutil.copy(source, engine / source.parent.name / source.name)
    monkeypatch.setattr(cache, "builtin_dir", lambda: variants)
    monkeypatch.setattr(cache, "_PACKAGE", engine)
    before = cache.key("sniff")
    assert before is not None and cache.key("sniff") == before
    with open(variants / "all-threes.yaml", "a") as handle:  # any built-in: one may extend another
        handle.write("\n# an edit\n")
    edited_variant = cache.key("sniff")
    assert edited_variant != before
    with open(engine / "engine" / "rules.py", "a") as handle:
        handle.write("\n# an edit of the compiler\n")
    assert cache.key("sniff") not in (before, edited_variant)
    assert cache.key("fives") != cache.key("sniff")
    # bones list's catalogue: also keyed by the module that writes its rows
    sniff, listing = cache.key("sniff"), cache.key(cache.CATALOGUE_REF, cache.CATALOGUE)
    assert listing is not None and listing != sniff
    with open(engine / "lang" / "describe.py", "a") as handle:
        handle.write("\n# an edit of the catalogue's words\n")
    assert cache.key("sniff") == sniff
    assert cache.key(cache.CATALOGUE_REF, cache.CATALOGUE) not in (None, listing)


def test_paths_are_never_cached(folder: Path) -> None:
    path = ROOT / "variants" / "sniff.yaml"
    variant = cache.load_builtin(str(path))
    assert not isinstance(variant, cache.CachedVariant)
    assert _entries(folder) == []


def test_an_entry_others_could_write_is_never_loaded(folder: Path) -> None:
    compile_rules(cache.load_builtin("muggins"), 2)
    assert from_disk(cache.load_builtin("muggins"))
    os.chmod(folder, 0o770)  # group-writable folder
    assert not from_disk(cache.load_builtin("muggins"))
    os.chmod(folder, 0o700)
    (entry,) = _entries(folder)
    os.chmod(entry, 0o666)  # a file anyone may rewrite
    assert not from_disk(cache.load_builtin("muggins"))
    os.chmod(entry, 0o600)
    link = folder / ("link" + cache.ENTRY_SUFFIX)
    entry.rename(link)
    entry.symlink_to(link)  # never followed
    assert not from_disk(cache.load_builtin("muggins"))


def test_a_corrupt_entry_or_an_unusable_folder_is_no_cache(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compile_rules(cache.load_builtin("bergen"), 2)
    (entry,) = _entries(folder)
    entry.write_bytes(b"not an entry")
    variant = cache.load_builtin("bergen")
    assert compile_rules(variant, 2).name == "bergen"
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(cache.ENV_DIR, str(blocker / "cache"))  # cannot be created
    variant = cache.load_builtin("bergen")
    assert compile_rules(variant, 2).name == "bergen"
    monkeypatch.setenv(cache.ENV_OFF, "off")
    assert not from_disk(cache.load_builtin("bergen"))


def test_a_cached_command_starts_without_yaml_or_the_models(tmp_path: Path) -> None:
    env = {**os.environ, cache.ENV_DIR: str(tmp_path / "cache"), "BONES_CORE": "python"}
    env.pop(cache.ENV_OFF, None)
    run = ("import sys\n"
           "from bones.cli.app import main\n"
           "sys.argv = ['bones', 'simulate', 'sniff', '--hands', '2', '--bots', 'random',"
           " '--quiet', '--seed', '3', '--json']\n"
           "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
           "loaded = [m for m in ('yaml', 'bones.lang.spec', 'bones.lang.load')"
           " if m in sys.modules]\n"
           "print('LOADED', loaded, file=sys.stderr)\n")
    cold = subprocess.run([sys.executable, "-c", run], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert "'bones.lang.spec'" in cold.stderr  # the first run reads the file
    warm = subprocess.run([sys.executable, "-c", run], env=env, capture_output=True, text=True,
                          cwd=tmp_path)
    assert warm.returncode == 0, warm.stderr
    assert "LOADED []" in warm.stderr
    strip = lambda text: text.split('"run"')[0]  # noqa: E731 - the report outside its run facts
    assert strip(warm.stdout) == strip(cold.stdout)


def _catalogues(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.catalogue.json")) if folder.is_dir() else []


def test_the_catalogue_comes_back_from_the_cache_as_made(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = (describe.catalogue(), describe.FAMILIES)
    assert cache.catalogue() == made
    (entry,) = _catalogues(folder)

    def not_again() -> None:
        raise AssertionError("the catalogue was made again")

    monkeypatch.setattr(describe, "catalogue", not_again)
    assert cache.catalogue() == made  # read back, the same rows in the same order
    entry.write_text("{not json")  # a corrupt entry is a miss: made again
    monkeypatch.undo()
    monkeypatch.setenv(cache.ENV_DIR, str(folder))
    assert cache.catalogue() == made
    monkeypatch.setenv(cache.ENV_OFF, "off")
    monkeypatch.setattr(describe, "catalogue", lambda: [{"family": "block"}])
    assert cache.catalogue()[0] == [{"family": "block"}]  # off: never read


def test_a_catalogue_that_fails_is_not_kept(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise ValueError("variants/sniff.yaml:3:7: a problem")

    monkeypatch.setattr(describe, "catalogue", broken)
    with pytest.raises(ValueError, match="sniff.yaml:3:7"):
        cache.catalogue()
    assert _catalogues(folder) == []


def test_bones_list_reads_its_catalogue_without_yaml_or_the_models(tmp_path: Path) -> None:
    env = {**os.environ, cache.ENV_DIR: str(tmp_path / "cache"), "NO_COLOR": "1"}
    env.pop(cache.ENV_OFF, None)
    run = ("import sys\n"
           "from bones.cli.app import main\n"
           "sys.argv = ['bones', *sys.argv[1:]]\n"
           "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
           "loaded = [m for m in ('yaml', 'pydantic', 'bones.lang.spec', 'bones.lang.describe')"
           " if m in sys.modules]\n"
           "print('LOADED', loaded, file=sys.stderr)\n")
    for args, first_makes in ((["list"], True), (["list", "--json"], False)):
        cold, warm = (subprocess.run([sys.executable, "-c", run, *args], env=env, cwd=tmp_path,
                                     capture_output=True, text=True) for _ in range(2))
        assert cold.returncode == 0 and warm.returncode == 0, cold.stderr + warm.stderr
        assert ("'bones.lang.describe'" in cold.stderr) == first_makes  # made once
        assert "LOADED []" in warm.stderr, warm.stderr
        assert warm.stdout == cold.stdout and "sniff" in warm.stdout
