CREATE TABLE IF NOT EXISTS stations (
    code TEXT PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS bikes (
    code TEXT PRIMARY KEY,
    station TEXT REFERENCES stations(code),
    model TEXT NOT NULL,
    in_service INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS repairs (
    id INTEGER PRIMARY KEY,
    bike TEXT NOT NULL REFERENCES bikes(code),
    done_on TEXT NOT NULL,
    mechanic TEXT NOT NULL,
    note TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS staff (
    login TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    pin_hash TEXT NOT NULL
);
