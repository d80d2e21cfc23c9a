"""Address block of a parcel label."""

EU_COUNTRIES = frozenset({
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
    "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
})
HOME_COUNTRY = "DE"
COUNTRY_NAMES = {
    "AT": "AUSTRIA", "CH": "SWITZERLAND", "ES": "SPAIN", "FR": "FRANCE", "GB": "UNITED KINGDOM",
    "IT": "ITALY", "NL": "NETHERLANDS", "NO": "NORWAY", "US": "UNITED STATES",
}


def country_code(country: str) -> str:
    return country.strip().upper()


def address_block(name: str, street: str, postcode: str, city: str, country: str) -> list[str]:
    """Lines of the recipient block; the country line is left out for domestic parcels."""
    code = country_code(country)
    lines = [name.strip(), street.strip(), f"{postcode.strip()} {city.strip().upper()}"]
    if code != HOME_COUNTRY:
        lines.append(COUNTRY_NAMES.get(code, code))
    return lines
