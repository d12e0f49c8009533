"""zhisai (智赛): the tournament service for the union's mind-sport competitions."""

__version__ = "0.1.0"
