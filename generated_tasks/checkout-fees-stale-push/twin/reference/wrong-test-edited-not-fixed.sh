#!/bin/bash
# Adds a test for 50.00 EUR that asserts the current behaviour (charged) so the suite stays green, changes no code, pushes properly.
set -e

git pull --rebase origin main

printf '%s\n' '' '' 'class ExactlyFiftyTest(unittest.TestCase):' '    def test_exactly_fifty(self):' '        self.assertEqual(shipping_fee(5000, "domestic"), 490)' >> tests/test_shipping.py && python3 -m unittest && git commit -qam "Test for orders of exactly 50.00 EUR" && git push origin main
