/** Shapes of the embed API answers (the contract in the README's widget section). */
export interface BrokerCard {
  name: string;
  slug: string;
  city: string;
  province: string;
  averageRating: number | null;
  reviewCount: number;
  photoUrl: string;
  insuranceLines: string[];
}

export interface BrokerSummary {
  name: string;
  slug: string;
  averageRating: number | null;
  reviewCount: number;
  photoUrl: string;
}

export interface Review {
  id: string | number;
  authorName: string;
  rating: number;
  title: string;
  body: string;
  createdAt: string;
}

export interface CarrierQuote {
  carrier: string;
  carrierSlug: string;
  monthlyPremium: number;
  annualPremium: number;
  coverage: string;
  deductible: number;
}

export interface QuoteResult {
  quoteId: string;
  insuranceType: string;
  quotes: CarrierQuote[];
  expiresAt: string;
}

export interface Lead {
  id: string | number;
  name: string;
  email: string;
  phone: string;
  insuranceType: string;
  status: string;
  createdAt: string;
}
