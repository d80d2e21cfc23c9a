import unittest

from labels.address import address_block


class AddressBlockTest(unittest.TestCase):
    def test_domestic_parcel_has_no_country_line(self):
        self.assertEqual(
            address_block(" Jonas Berg ", "Hafenstr. 12", "20457", "Hamburg", "de"),
            ["Jonas Berg", "Hafenstr. 12", "20457 HAMBURG"],
        )

    def test_foreign_parcel_names_the_country(self):
        self.assertEqual(
            address_block("Ana Ruiz", "Calle Mayor 5", "28013", "Madrid", "ES")[-1], "SPAIN"
        )

    def test_unknown_country_falls_back_to_its_code(self):
        block = address_block("K. Sato", "1-2-3 Ginza", "104-0061", "Tokyo", "jp")
        self.assertEqual(block[-1], "JP")
