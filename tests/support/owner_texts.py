"""Owners' messages as history.db holds them, for the language check's tests (written for these
tests: one owner who writes English, one who writes Portuguese; a bilingual owner is both), and
model replies in the shape llama.cpp's server answers them (tests/fixtures/live_model/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ENGLISH = (
    "hi! I just got back from work and I am pretty tired",
    "my name is Sam and I live in Lisbon with my cat",
    "can you remind me to call my sister tomorrow morning?",
    "I had a long day at the library, lots of people came in",
    "what should I cook tonight? I have rice and some vegetables",
    "I think I will go for a run before dinner",
    "my sister is called Ana and she lives in Porto",
    "I love jasmine tea, I drink it every afternoon",
    "do you remember what I told you about my cat?",
    "the weather is nice today so I walked to work",
    "I am reading a book about the history of maps",
    "tomorrow I have a meeting with my boss at ten",
    "I need to buy a present for my mother's birthday",
    "what time is it where you are? it is late here",
    "I usually go running every morning before breakfast",
    "my favourite band is Radiohead, I saw them live once",
    "could you help me plan my week? it is a busy one",
    "I forgot to water the plants again, they look sad",
    "my friend Tom is coming to visit on Saturday",
    "I want to learn how to bake bread this winter",
    "thanks for listening, it helps to talk about it",
    "I don't like mornings very much but I get up early anyway",
    "we are going to the beach on Sunday if it does not rain",
    "I have been feeling a bit stressed about the project at work",
    "I prefer tea to coffee, coffee makes me nervous",
    "can you tell me something nice to end the day?",
    "I finished the book about maps, it was really good",
    "my cat knocked a glass off the table this morning",
    "I think I should go to bed earlier during the week",
    "what did I say about my sister last week?",
    "I am cooking soup tonight with the vegetables I bought",
    "the meeting went well, my boss liked the plan",
    "I would like to visit Japan one day, maybe next year",
    "I went to the market early and bought fresh bread and some fruit",
    "my neighbour has a new dog and it barks all night long",
    "is it a good idea to take a short walk after lunch every day?",
    "I have to finish the report before Friday or my boss will be upset",
    "the train was late again this morning so I missed the first meeting",
    "I watched a film about the sea last night and it was beautiful",
    "my mother called me today and we talked for almost an hour",
    "I am thinking about painting the kitchen a lighter colour",
    "could you tell me a short story before I go to sleep?",
    "I have not seen my old friends from school for a long time",
    "good night, talk to you tomorrow",
)

PORTUGUESE = (
    "olá! acabei de chegar do trabalho e estou muito cansado",
    "o meu nome é Sam e moro em Lisboa com o meu gato",
    "podes lembrar-me de ligar à minha irmã amanhã de manhã?",
    "tive um dia longo na biblioteca, veio muita gente",
    "o que devo cozinhar hoje? tenho arroz e alguns legumes",
    "acho que vou correr um pouco antes do jantar",
    "a minha irmã chama-se Ana e vive no Porto",
    "adoro chá de jasmim, bebo todas as tardes",
    "lembras-te do que te disse sobre o meu gato?",
    "o tempo está bom hoje por isso fui a pé para o trabalho",
    "estou a ler um livro sobre a história dos mapas",
    "amanhã tenho uma reunião com o meu chefe às dez",
    "preciso de comprar um presente para o aniversário da minha mãe",
    "que horas são aí? aqui já é tarde",
    "costumo correr todas as manhãs antes do pequeno-almoço",
    "a minha banda preferida são os Radiohead, vi-os ao vivo uma vez",
    "podes ajudar-me a planear a semana? vai ser muito ocupada",
    "esqueci-me outra vez de regar as plantas, estão tristes",
    "o meu amigo Tomás vem visitar-me no sábado",
    "quero aprender a fazer pão este inverno",
    "obrigado por me ouvires, ajuda falar sobre isto",
    "não gosto muito das manhãs mas levanto-me cedo na mesma",
    "vamos à praia no domingo se não chover",
    "tenho andado um pouco stressado com o projeto do trabalho",
    "prefiro chá a café, o café deixa-me nervoso",
    "podes dizer-me uma coisa bonita para acabar o dia?",
    "acabei o livro dos mapas, foi mesmo bom",
    "o meu gato deitou um copo da mesa abaixo esta manhã",
    "acho que me devia deitar mais cedo durante a semana",
    "o que é que eu disse sobre a minha irmã na semana passada?",
    "vou fazer sopa hoje com os legumes que comprei",
    "a reunião correu bem, o meu chefe gostou do plano",
    "gostava de visitar o Japão um dia, talvez no próximo ano",
    "fui ao mercado cedo e comprei pão fresco e alguma fruta",
    "o meu vizinho tem um cão novo que ladra a noite toda",
    "é boa ideia dar um pequeno passeio depois do almoço todos os dias?",
    "tenho de acabar o relatório antes de sexta ou o meu chefe fica chateado",
    "o comboio voltou a atrasar-se esta manhã e perdi a primeira reunião",
    "ontem à noite vi um filme sobre o mar e era muito bonito",
    "a minha mãe ligou-me hoje e falámos quase uma hora",
    "estou a pensar pintar a cozinha de uma cor mais clara",
    "podes contar-me uma história curta antes de eu ir dormir?",
    "há muito tempo que não vejo os meus velhos amigos da escola",
    "boa noite, falamos amanhã",
)

FOREIGN_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "live_model" / "languages.json"


def foreign_answers() -> list[dict[str, Any]]:
    """Answers in llama.cpp's chat-completion shape, each with the language its text is in."""
    records: list[dict[str, Any]] = json.loads(FOREIGN_FIXTURE.read_text())
    return records
