"""The station → logger map in config/stations.conf."""

from pathlib import Path

CONFIG = Path(__file__).resolve().parent.parent / "config" / "stations.conf"


class UnknownStation(KeyError):
    pass


def read_stations(path: Path = CONFIG) -> dict[str, dict[str, str]]:
    stations = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 3:
            raise ValueError(f"{path.name}:{number}: expected 'station logger river', got {line!r}")
        station, logger, river = fields
        stations[station] = {"logger": logger, "river": river}
    return stations


def logger_for(station: str, path: Path = CONFIG) -> str:
    stations = read_stations(path)
    if station not in stations:
        raise UnknownStation(f"unknown station {station!r} (known: {', '.join(sorted(stations))})")
    return stations[station]["logger"]
