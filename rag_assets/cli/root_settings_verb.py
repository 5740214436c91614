"""``rag-assets settings``: the data root's index settings, shown, or changed for every process of the root."""

from __future__ import annotations

from rag_assets.settings import ENV_OF, SettingsError, read_settings


def cmd_settings(args) -> int:
    """Print the root's index settings (and any variable of the environment that disagrees); with ``--set
    NAME=VALUE`` record the changes first. Reports built under other settings then show stale in the UI (its
    status sensor looks every 30 s) and in ``doctor``; ``rag-assets ingest`` rebuilds them."""
    from rag_assets.orchestration.root_settings import SHAPING, effective, record, recorded, root_of, settings_file

    settings = read_settings()
    root = root_of(settings)
    changes = {}
    for pair in args.set or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise SettingsError(f"--set {pair!r}: write NAME=VALUE (names: {', '.join(SHAPING)})")
        changes[name.strip()] = value.strip()
    before = recorded(root) or effective(settings)
    if changes:
        after = record(settings, root, changes)
        moved = [f"{k}: {before[k]!r} -> {v!r}" for k, v in after.items() if before[k] != v]
        print(f"recorded in {settings_file(root)}: " + ("; ".join(moved) if moved else "nothing changed"))
        if moved:
            print("reports built under the old settings are stale: `rag-assets ingest` rebuilds them")
    values = recorded(root) or effective(settings)
    where = settings_file(root) if recorded(root) else f"{settings_file(root)} not written yet (the first " \
        "ingestion records these)"
    print(f"index settings of {root} ({where}):")
    for name in SHAPING:
        env = getattr(settings, name)
        clash = f"   (but {ENV_OF[name]}={env!r}: refused while it disagrees)" if env is not None and \
            recorded(root) and env != values[name] else ""
        print(f"  {name} = {values[name]!r}{clash}")
    return 0
