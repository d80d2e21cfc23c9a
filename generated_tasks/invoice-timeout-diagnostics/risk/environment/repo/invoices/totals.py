from decimal import ROUND_HALF_UP, Decimal


def invoice_total(lines: list[tuple[int, str]], vat_rate: str = "0.19") -> Decimal:
    """Sum of quantity × unit price, plus VAT, rounded to cents."""
    net = sum((Decimal(quantity) * Decimal(price) for quantity, price in lines), Decimal("0"))
    gross = net * (Decimal("1") + Decimal(vat_rate))
    return gross.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
