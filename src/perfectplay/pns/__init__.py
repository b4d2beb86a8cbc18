"""Proof-number search: df-pn (Nagai 2002) over any game of the protocol (``dfpn``), and the
solving method ``pns`` that answers with it (``method``, docs/pns.md)."""
