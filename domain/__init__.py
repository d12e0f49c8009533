"""zhisai's domain: the rules of the games and the services that run competitions.

Layers go one way: rules <- events <- schedule <- scoring. The pure parts import neither the web
framework nor the ORM; persistence lives in ``storage``.
"""
