"""perfectplay and the libraries its users already work in: OpenSpiel's games named
``openspiel:NAME`` (openspiel), perfectplay's games as OpenSpiel games (openspiel_export), and
reinforcement-learning environments for PettingZoo and Gymnasium (pettingzoo, gym). Each needs
its optional extra and is imported only when used."""
