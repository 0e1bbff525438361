"""Writes N items as JSON Lines for `stockroom import`: names like "Sturdy Keyboard 000123" (the
words of Benchmarks' Dataset), every colour and none, 60% in stock, 25% out, 15% on back order.
Deterministic for a given N. Usage: python3 items.py N > items.jsonl"""
import json
import random
import sys

ADJECTIVES = ["Sturdy", "Compact", "Wireless", "Vintage", "Modular", "Quiet", "Rugged", "Slim",
              "Classic", "Smart", "Heavy", "Portable", "Bright", "Silent", "Rapid", "Tiny"]
NOUNS = ["Keyboard", "Charger", "Phone", "Headphones", "Mouse", "Monitor", "Cable", "Adapter",
         "Speaker", "Camera", "Tablet", "Router", "Lamp", "Drive", "Hub", "Stand"]
COLORS = [None, "black", "blue", "green", "red", "white", "yellow"]

count = int(sys.argv[1])
generator = random.Random(2026)
out = sys.stdout
for index in range(count):
    roll = generator.randrange(100)
    if roll < 60:
        status = {"case": "inStock", "quantity": generator.randrange(500) + 1}
    else:
        status = {"case": "outOfStock", "isOnBackOrder": roll >= 85}
    name = f"{generator.choice(ADJECTIVES)} {generator.choice(NOUNS)} {index:06d}"
    out.write(json.dumps({"name": name, "color": generator.choice(COLORS), "status": status}, separators=(",", ":")) + "\n")
