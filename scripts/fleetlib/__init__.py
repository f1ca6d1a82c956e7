"""The fleet of scripts/fleet.py: its orchestration (cluster), its checks and test groups, its figures (bench)."""
