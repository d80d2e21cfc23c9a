"""The WSGI application: routing and JSON responses."""

import json
import re
from urllib.parse import parse_qs

from fleetdesk import db

JSON = [("Content-Type", "application/json; charset=utf-8")]
BIKE = re.compile(r"^/bikes/(?P<code>[A-Z0-9-]+)$")
BIKE_REPAIRS = re.compile(r"^/bikes/(?P<code>[A-Z0-9-]+)/repairs$")


def respond(start_response, status: str, body: dict) -> list[bytes]:
    start_response(status, JSON)
    return [json.dumps(body).encode()]


def not_found(start_response, what: str = "not found") -> list[bytes]:
    return respond(start_response, "404 Not Found", {"error": what})


def list_stations(conn, query, start_response):
    return respond(start_response, "200 OK", {"stations": db.stations(conn)})


def list_bikes(conn, query, start_response):
    station = query.get("station", [None])[0]
    return respond(start_response, "200 OK", {"bikes": db.bikes(conn, station)})


def show_bike(conn, code, start_response):
    found = db.bike(conn, code)
    if found is None:
        return not_found(start_response, f"no bike {code}")
    return respond(start_response, "200 OK", found)


def bike_repairs(conn, code, start_response):
    if db.bike(conn, code) is None:
        return not_found(start_response, f"no bike {code}")
    repairs = db.repairs_for(conn, code)
    last = repairs[0]
    return respond(start_response, "200 OK", {"bike": code, "last_repair": last["done_on"], "repairs": repairs})


ROUTES = {"/stations": list_stations, "/bikes": list_bikes}


def application(environ, start_response):
    if environ.get("REQUEST_METHOD", "GET") != "GET":
        start_response("405 Method Not Allowed", JSON)
        return [b'{"error": "method not allowed"}']
    path = environ.get("PATH_INFO", "/")
    query = parse_qs(environ.get("QUERY_STRING", ""))
    conn = db.connect()
    try:
        if path in ROUTES:
            return ROUTES[path](conn, query, start_response)
        if match := BIKE_REPAIRS.match(path):
            return bike_repairs(conn, match["code"], start_response)
        if match := BIKE.match(path):
            return show_bike(conn, match["code"], start_response)
        return not_found(start_response)
    finally:
        conn.close()
