import type { ErrorCode } from "../schemas/errorCodes.ts";
import type { Language } from "../schemas/language.ts";

/** What every error answer knows besides its code, for a message in another language. */
export interface MessageFacts {
  /** The fields named by `issues` (invalid input). */
  fields: readonly string[];
  /** Seconds to wait, when the answer carries Retry-After. */
  retryAfterSeconds?: number;
}

const retry = (facts: MessageFacts, otherwise: string) =>
  facts.retryAfterSeconds === undefined ? otherwise : `Réessayez dans ${facts.retryAfterSeconds} s.`;

/**
 * The French words of every code, one sentence each saying what to do (the English wording is
 * made where the error happens, with its particulars: a slug, a rule, a date). Keyed by code,
 * so a new code cannot ship without its French (the compiler asks); `error` changes with the
 * language, `code` never does.
 */
const FRENCH: Record<ErrorCode, (facts: MessageFacts) => string> = {
  invalid_parameter: ({ fields }) =>
    fields.length > 0 && fields.some((f) => f !== "")
      ? `Certains champs sont invalides : ${fields.filter((f) => f !== "").join(", ")}. Corrigez-les et renvoyez la demande (le détail de chaque champ est dans issues).`
      : "La demande est invalide. Corrigez-la et renvoyez-la (le détail est dans issues).",
  invalid_json: () => "Le corps de la requête n’est pas un JSON valide en UTF-8. Envoyez un objet JSON.",
  not_enough_carriers: () => "Trop peu d’assureurs de notre catalogue couvrent ce type d’assurance dans cette province pour comparer des soumissions. Un courtier de la région peut vous en proposer une.",
  payload_too_large: () => "Le corps de la requête est trop volumineux (64 Kio au plus).",
  unsupported_media_type: () => "Envoyez le corps en JSON avec l’en-tête « Content-Type: application/json ».",
  not_acceptable: () => "L’en-tête Accept doit admettre application/json.",
  invalid_request_target: () => "Requête invalide : l’en-tête Host ou le chemin demandé n’est pas une adresse valide.",
  request_target_too_long: () => "Le chemin et la chaîne de requête sont trop longs (8 Kio au plus).",
  not_found: () => "Cette adresse n’existe pas. L’API se trouve sous /api/v1 (voir /api/v1/openapi.json).",
  idempotency_conflict: () =>
    "Cette clé Idempotency-Key a déjà servi, dans les dernières 24 heures, à une autre requête. Prenez une nouvelle clé pour une nouvelle requête ; une nouvelle tentative doit renvoyer le même corps à la même adresse.",
  method_not_allowed: () => "Cette méthode n’est pas admise à cette adresse ; l’en-tête Allow indique celles qui le sont.",
  missing_api_key: () => "Clé d’API manquante. Envoyez-la dans l’en-tête « Authorization: Bearer brk_… ».",
  malformed_authorization: () => "En-tête Authorization mal formé. Attendu : « Authorization: Bearer brk_… ».",
  invalid_api_key: () => "Clé d’API invalide. Vérifiez qu’elle est complète et sans faute de frappe.",
  api_key_revoked: () => "Cette clé d’API a été révoquée. Créez-en une nouvelle.",
  api_key_expired: () => "Cette clé d’API a expiré. Créez-en une nouvelle.",
  embed_key_not_allowed: () => "Cette clé d’intégration ne fonctionne que sur /api/v1/embed/*, depuis ses origines autorisées. Utilisez ici une clé de serveur.",
  origin_missing: () => "Cette clé d’intégration ne fonctionne que depuis une page web d’une de ses origines autorisées ; la requête n’avait pas d’en-tête Origin.",
  origin_not_allowed: () => "Cette origine n’est pas autorisée ici. Ajoutez-la aux origines de la clé.",
  server_key_in_browser: () =>
    "Cette clé est une clé de serveur (sans liste d’origines) : une page web ne peut pas l’utiliser, sa source la montrerait à tous. Créez une clé d’intégration avec --origins (broker-directory keys create --workspace NAME --origins https://votre-site.example) ou copiez le code d’intégration depuis la console.",
  scope_missing: () => "Cette clé d’API n’a pas la portée (scope) qu’exige cette opération. Créez une clé qui l’inclut.",
  too_many_auth_failures: (facts) => `Trop de tentatives d’authentification échouées depuis cette adresse. ${retry(facts, "Réessayez plus tard.")}`,
  rate_limited: (facts) => `Limite de requêtes par minute de cette clé atteinte. ${retry(facts, "Réessayez dans quelques secondes.")}`,
  too_many_downloads: (facts) => `Trop de téléchargements en cours pour cette clé. ${retry(facts, "Réessayez quand l’un d’eux sera terminé.")}`,
  too_many_uploads: () => "Trop d’envois en cours depuis votre adresse ; réessayez quand certains seront terminés.",
  broker_not_found: () => "Aucun courtier publié ne porte cet identifiant. Utilisez le slug ou l’id d’un résultat de recherche.",
  quote_not_found: () => "Aucune soumission de cet identifiant n’existe dans cet espace de travail (elle a peut-être expiré). Demandez une nouvelle soumission.",
  lead_not_found: () => "Aucune demande de contact de cet identifiant n’existe dans cet espace de travail.",
  key_not_found: () => "Aucune clé de cet identifiant n’existe dans cet espace de travail.",
  webhook_not_found: () => "Aucun point de terminaison webhook de cet identifiant n’existe dans cet espace de travail.",
  review_not_found: () => "Aucun avis n’a cet identifiant.",
  scope_not_grantable: () => "Cette clé ne peut donner que les portées qu’elle détient elle-même.",
  rate_limit_not_grantable: () => "Cette clé ne peut pas donner une limite de requêtes plus haute que la sienne ni que le plafond du serveur.",
  key_limit_reached: () => "Cet espace de travail a atteint son nombre maximal de clés actives. Révoquez-en une d’abord.",
  key_already_rolled: () => "Cette clé a déjà été remplacée. Remplacez plutôt celle qui lui succède.",
  key_not_active: () => "Seule une clé active peut être remplacée. Créez plutôt une nouvelle clé.",
  webhook_limit_reached: () => "Cet espace de travail a atteint son nombre maximal de points de terminaison webhook. Supprimez-en un d’abord.",
  session_required: () => "Vous n’êtes pas connecté, ou la session a pris fin. Ouvrez un nouveau lien de connexion.",
  csrf_token_invalid: () => "Refusé : jeton X-CSRF-Token manquant ou erroné. Rechargez la console et réessayez.",
  host_not_allowed: () => "Ce serveur écoute sur localhost et ne répond qu’aux requêtes adressées à localhost, 127.0.0.1 ou [::1].",
  local_only: () => "Cette page n’est servie qu’à la machine du serveur.",
  invalid_metrics_token: () => "Jeton de métriques invalide. Envoyez « Authorization: Bearer $METRICS_TOKEN » tel que configuré sur le serveur.",
  database_unavailable: (facts) => `Le service ne peut pas joindre sa base de données pour l’instant. Rien n’a été enregistré. ${retry(facts, "Réessayez plus tard.")}`,
  read_only: (facts) => `Le service ne peut rien enregistrer pour l’instant : sa base de données est en lecture seule. Rien n’a été enregistré. ${retry(facts, "Réessayez plus tard.")}`,
  storage_full: (facts) => `Le service ne peut rien enregistrer pour l’instant : son stockage est plein. Rien n’a été enregistré. ${retry(facts, "Réessayez plus tard.")}`,
  database_busy: (facts) => `La base de données du service est occupée par une longue écriture. Rien n’a été enregistré. ${retry(facts, "Réessayez dans quelques secondes.")}`,
  server_busy: () => "Le serveur répond à trop de clients à la fois ; réessayez sous peu.",
  client_closed_request: () => "La connexion s’est fermée avant l’arrivée complète du corps de la requête.",
  internal_error: () => "Erreur interne du serveur. L’incident est consigné ; réessayez plus tard ou contactez l’exploitant en citant requestId.",
};

/** The message of an error in the asked language: the English as made, or the French of its code. */
export function inLanguage(language: Language | undefined, code: ErrorCode, english: string, facts: MessageFacts): string {
  return language === "fr" ? FRENCH[code](facts) : english;
}
