sed -n '1,30p' src/fares/pricing.py

# turn 2
scripts/test-report || true
